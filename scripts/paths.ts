import { globSync } from "node:fs"
import path from "node:path"
import { pathToFileURL } from "node:url"
import type { AnyMachineSnapshot, EventObject } from "xstate"

// Prints every path the model-based tests walk, flow by flow, for QA to read what is covered.
// Each tests/models/**/<flow>.model.ts exports `<flow>Paths()`, the very function its test
// iterates, so this list and the tests cannot drift apart.

export const MODELS_GLOB = "tests/models/**/*.model.ts"

interface WalkedPath {
  readonly steps: ReadonlyArray<{ readonly state: AnyMachineSnapshot; readonly event: EventObject }>
}

export interface Flow {
  readonly name: string
  readonly source: string
  readonly paths: ReadonlyArray<ReadonlyArray<string>>
}

/** A step as QA reads it: what the model says the step does, then the event that the test sends. */
export function describeStep(from: AnyMachineSnapshot, event: EventObject): string {
  const description = from.machine
    .getTransitionData(from, event)
    .map((transition) => transition.description)
    .find((text) => text !== undefined)
  return description === undefined ? event.type : `${description} (${event.type})`
}

/** The steps after the model's start, each described from the state it was taken in. */
export function describePath({ steps }: WalkedPath): ReadonlyArray<string> {
  return steps.flatMap((step, index) => {
    const from = steps[index - 1]?.state
    return from === undefined ? [] : [describeStep(from, step.event)]
  })
}

const isPathsFunction = (name: string, value: unknown): value is () => ReadonlyArray<WalkedPath> =>
  name.endsWith("Paths") && typeof value === "function"

/** Imports every model file and walks each `<flow>Paths` function it exports. */
export async function loadFlows(root: string): Promise<ReadonlyArray<Flow>> {
  const flows: Array<Flow> = []
  for (const source of globSync(MODELS_GLOB, { cwd: root }).sort()) {
    const exports = (await import(pathToFileURL(path.join(root, source)).href)) as Record<string, unknown>
    for (const [name, value] of Object.entries(exports)) {
      if (isPathsFunction(name, value)) flows.push({ name: name.slice(0, -"Paths".length), source, paths: value().map(describePath) })
    }
  }
  return flows
}

export function formatFlows(flows: ReadonlyArray<Flow>): string {
  return flows
    .map((flow) =>
      [
        `${flow.name}: ${flow.paths.length} ${flow.paths.length === 1 ? "path" : "paths"} (${flow.source})`,
        ...flow.paths.map((steps) => `${flow.name}: ${steps.join(" → ")}`)
      ].join("\n")
    )
    .join("\n\n")
}

if (import.meta.main) {
  console.log(formatFlows(await loadFlows(path.resolve(import.meta.dirname, ".."))))
}

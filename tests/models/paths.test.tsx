import { globSync } from "node:fs"
import path from "node:path"
import { describe, expect, it } from "vitest"
import { createMachine } from "xstate"
import { createTestModel } from "xstate/graph"
import { describePath, formatFlows, loadFlows, MODELS_GLOB } from "../../scripts/paths.ts"

const root = path.resolve(import.meta.dirname, "../..")

const doorModel = createMachine({
  id: "door",
  initial: "closed",
  states: {
    closed: { on: { "door.open": { target: "open", description: "open the door" } } },
    open: { on: { "door.close": "closed" } }
  }
})

describe("npm run paths", () => {
  it("lists a flow from every model file", async () => {
    const flows = await loadFlows(root)
    expect(new Set(flows.map((flow) => flow.source))).toEqual(new Set(globSync(MODELS_GLOB, { cwd: root })))
    for (const flow of flows) expect(flow.paths.length, flow.name).toBeGreaterThan(0)
  })

  it("names each step by the model's description and the event the test sends", () => {
    const [walked] = createTestModel(doorModel).getPathsFromEvents([{ type: "door.open" }, { type: "door.close" }])
    if (walked === undefined) throw new Error("a path")
    expect(describePath(walked)).toEqual(["open the door (door.open)", "door.close"])
    expect(formatFlows([{ name: "door", source: "door.model.ts", paths: [describePath(walked)] }])).toBe(
      "door: 1 path (door.model.ts)\ndoor: open the door (door.open) → door.close"
    )
  })
})

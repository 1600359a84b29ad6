import { describe, expect, it } from "vitest"
import { createMachine } from "xstate"
import { flowDiagram } from "../../../scripts/flowDiagram.ts"
import { expectedFlowFiles } from "../../../scripts/flowPages.ts"
import { loadFlowMachines } from "../../../scripts/flows.ts"

// Mermaid's state-diagram lexer takes these as keywords, and makes `root`, `X_start` and `X_end` itself.
const KEYWORDS = new Set([
  "as",
  "class",
  "classdef",
  "click",
  "direction",
  "end",
  "hide",
  "href",
  "note",
  "root",
  "scale",
  "state",
  "style"
])
const ID = /^[A-Za-z_][A-Za-z0-9_]*$/

interface Block {
  readonly id: string | null
  /** The ids of the blocks from the top down to this one. */
  readonly chain: ReadonlyArray<string>
  readonly divided: boolean
  statements: string[]
}

/**
 * The subset of stateDiagram-v2 the generator writes, checked against the rules of Mermaid's
 * grammar and the renderer's known failures, since no renderer runs here.
 */
function mermaidProblems(mermaid: string): string[] {
  const problems: string[] = []
  const lines = mermaid.split("\n")
  if (lines[0] !== "stateDiagram-v2") problems.push("the first line is not stateDiagram-v2")
  const declared = new Map<string, { chain: ReadonlyArray<string>; composite: boolean; divided: boolean }>()
  const edges: Array<{ from: string; to: string; scope: Block; line: number }> = []
  const stack: Block[] = [{ id: null, chain: [], divided: false, statements: [] }]
  lines.slice(1).forEach((raw, index) => {
    const line = index + 2
    const text = raw.trim()
    const block = stack[stack.length - 1]!
    if (text === "") return
    const state = /^state "([^"]*)" as (\S+)( \{)?$/.exec(text)
    const edge = /^(\S+) --> (\S+)(?: : (.*))?$/.exec(text)
    if (state !== null) {
      const [, label, id, opens] = state as unknown as [string, string, string, string | undefined]
      if (label.trim() === "") problems.push(`line ${line}: state ${id} has no label`)
      if (!ID.test(id) || KEYWORDS.has(id.toLowerCase()) || /^default/i.test(id)) problems.push(`line ${line}: ${id} is not a safe id`)
      if (declared.has(id)) problems.push(`line ${line}: ${id} is declared twice`)
      declared.set(id, { chain: block.chain, composite: opens !== undefined, divided: stack.some((outer) => outer.divided) })
      block.statements.push("state")
      if (opens !== undefined) stack.push({ id, chain: [...block.chain, id], divided: isDirectDivider(lines, index + 1), statements: [] })
    } else if (text === "}") {
      if (stack.length === 1) problems.push(`line ${line}: } closes nothing`)
      else {
        if (block.statements.length === 0) problems.push(`line ${line}: state ${block.id} is empty`)
        if (block.statements.at(-1) === "--") problems.push(`line ${line}: state ${block.id} ends with --`)
        stack.pop()
      }
    } else if (text === "--") {
      if (!block.divided) problems.push(`line ${line}: -- outside a parallel state`)
      if (block.statements.length === 0 || block.statements.at(-1) === "--") problems.push(`line ${line}: -- without a region before it`)
      block.statements.push("--")
    } else if (edge !== null) {
      const [, from, to, label] = edge as unknown as [string, string, string, string | undefined]
      if (label !== undefined && !/^[^:;\n%{}"]+$/.test(label)) problems.push(`line ${line}: the label "${label}" is not plain text`)
      if (from === "[*]" && to === "[*]") problems.push(`line ${line}: [*] --> [*]`)
      if (block.divided) problems.push(`line ${line}: a transition between the regions of ${block.id}`)
      edges.push({ from, to, scope: block, line })
      block.statements.push("edge")
    } else {
      problems.push(`line ${line}: "${text}" is not a statement of this subset`)
    }
  })
  if (stack.length > 1) problems.push(`state ${stack[stack.length - 1]!.id} is never closed`)
  for (const [id, { composite }] of declared) {
    if (composite && (declared.has(`${id}_start`) || declared.has(`${id}_end`)))
      problems.push(`${id}_start or ${id}_end clashes with ${id}'s own start or end`)
  }
  if (declared.has("root_start") || declared.has("root_end"))
    problems.push("root_start or root_end clashes with the diagram's start or end")
  for (const { from, to, scope, line } of edges) {
    for (const end of [from, to].filter((name) => name !== "[*]")) {
      const state = declared.get(end)
      if (state === undefined) problems.push(`line ${line}: ${end} is never declared`)
      else if (scope.id !== null && !state.chain.includes(scope.id))
        problems.push(`line ${line}: ${end} is outside the block of ${scope.id}`)
      // mermaid#4052: such an arrow crashes the layout, though a region's own start arrow does not
      else if (state.composite && state.divided && from !== "[*]")
        problems.push(`line ${line}: an arrow touches ${end}, a composite inside a parallel region`)
    }
    if (from === to && declared.get(from)?.composite === true) problems.push(`line ${line}: a loop around the composite ${from}`)
  }
  return problems
}

/** Whether the block opened on line `opening` (0-based) holds a `--` of its own, not a nested one. */
function isDirectDivider(lines: ReadonlyArray<string>, opening: number): boolean {
  let depth = 0
  for (const line of lines.slice(opening + 1).map((each) => each.trim())) {
    if (line.endsWith("{")) depth++
    else if (line === "}" && depth-- === 0) return false
    else if (line === "--" && depth === 0) return true
  }
  return false
}

describe("the Mermaid structure check", () => {
  it("accepts a diagram of every construct the generator uses", () => {
    const accepted = [
      "stateDiagram-v2",
      '  state "outer" as outer {',
      '    state "left" as left {',
      "      [*] --> left__a",
      '      state "a" as left__a',
      "      left__a --> left__a : tick<br/>after 20ms [ready and warm]",
      "    }",
      "    --",
      '    state "right" as right',
      "  }",
      "  [*] --> outer",
      "  left__a --> [*] : done(load)"
    ].join("\n")
    expect(mermaidProblems(accepted)).toEqual([])
  })

  it.each([
    ['state "a" as a {', "state a is never closed"],
    ["}", "closes nothing"],
    ['state "a" as a\na --> b : go', "b is never declared"],
    ['state "a" as a.b', "a.b is not a safe id"],
    ['state "a" as note', "note is not a safe id"],
    ['state "a" as a\na --> a : done: load', "is not plain text"],
    ['state "a" as a\nstate "b" as a', "a is declared twice"],
    ['state "a" as a {\nstate "b" as b\n}\na --> a : go', "a loop around the composite a"],
    ['state "p" as p {\nstate "x" as x {\nstate "i" as i\n}\n--\nstate "y" as y\n}\ny --> x', "a composite inside a parallel region"],
    ['state "a" as a {\nstate "b" as b\n}\nstate "c" as c {\nstate "d" as d\nd --> b\n}', "b is outside the block of c"],
    ["--", "-- outside a parallel state"],
    ['state "a" as a\nstate "a_start" as a_start\nstate "r" as r {\nstate "r_end" as r_end\n}', "r_start or r_end clashes"],
    ["a -> b", "is not a statement of this subset"]
  ])("rejects %j", (body, problem) => {
    expect(mermaidProblems(`stateDiagram-v2\n${body}`).join("\n")).toContain(problem)
  })
})

describe("every generated diagram", () => {
  it("is well formed for each machine under src/machines", async () => {
    const machines = await loadFlowMachines()
    expect(machines.length).toBeGreaterThan(0)
    for (const entry of machines) {
      expect({ machine: entry.source, problems: mermaidProblems(flowDiagram(entry.machine).mermaid) }).toEqual({
        machine: entry.source,
        problems: []
      })
    }
  })

  it("sits in exactly one mermaid block in its file, and the index links every file", async () => {
    const files = expectedFlowFiles(await loadFlowMachines())
    const index = files.get("README.md") ?? ""
    for (const [path, content] of files) {
      if (path === "README.md") continue
      expect(content.match(/^```mermaid\nstateDiagram-v2\n[^`]*\n```$/gm)?.length, path).toBe(1)
      expect(index).toContain(`](${path})`)
    }
  })

  it("stays well formed for small machines of each kind", () => {
    const deep = createMachine({
      id: "deep",
      type: "parallel",
      states: {
        a: {
          initial: "x",
          states: { x: { initial: "i", states: { i: { on: { go: "j" } }, j: { type: "final" } }, on: { back: ".i" } }, y: {} },
          on: { jump: ".y" }
        },
        b: { initial: "k", states: { h: { type: "history" }, k: { on: { "b.back": "h" } } } }
      },
      on: { reset: ".a.x" }
    })
    const root = createMachine({ id: "root", initial: "start", states: { start: { on: { end: "end" } }, end: { type: "final" } } })
    for (const machine of [deep, root]) expect(mermaidProblems(flowDiagram(machine).mermaid)).toEqual([])
  })
})

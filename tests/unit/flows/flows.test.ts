import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterEach, describe, expect, it } from "vitest"
import { createMachine } from "xstate"
import { expectedFlowFiles, type FlowMachine } from "../../../scripts/flowPages.ts"
import {
  compareFlowFiles,
  FLOWS_DIR,
  flowDriftMessage,
  loadFlowMachines,
  REPO_ROOT,
  readFlowFiles,
  writeFlowFiles
} from "../../../scripts/flows.ts"

describe(`${FLOWS_DIR}`, () => {
  it("holds the diagram of every machine under src/machines as npm run flows draws it today", async () => {
    const expected = expectedFlowFiles(await loadFlowMachines())
    const committed = await readFlowFiles(join(REPO_ROOT, FLOWS_DIR))
    expect(flowDriftMessage(compareFlowFiles(expected, committed))).toBe("")
  })
})

const machine = (id: string) => createMachine({ id, initial: "idle", states: { idle: { on: { go: "done" } }, done: {} } })
const entries: FlowMachine[] = [
  { feature: "shell", source: "src/machines/shell/bootMachine.ts", exportName: "bootMachine", machine: machine("boot") },
  { feature: "shell", source: "src/machines/shell/menuMachine.ts", exportName: "menuMachine", machine: machine("menu") },
  { feature: "player", source: "src/machines/player/playerMachine.ts", exportName: "playerMachine", machine: machine("player") }
]

describe("the stale-diagram check", () => {
  const expected = expectedFlowFiles(entries)

  it("finds nothing to say when every file is as drawn", () => {
    const drift = compareFlowFiles(expected, new Map(expected))
    expect(drift).toEqual({ stale: [], missing: [], extra: [] })
    expect(flowDriftMessage(drift)).toBe("")
  })

  it("names a changed, a missing and a left-over file and says how to fix them", () => {
    const committed = new Map(expected)
    committed.set("shell/bootMachine.md", `${expected.get("shell/bootMachine.md")}edited by hand\n`)
    committed.delete("player/playerMachine.md")
    committed.set("streams/renamedMachine.md", "# an old diagram\n")
    const drift = compareFlowFiles(expected, committed)
    expect(drift).toEqual({ stale: ["shell/bootMachine.md"], missing: ["player/playerMachine.md"], extra: ["streams/renamedMachine.md"] })
    expect(flowDriftMessage(drift)).toBe(
      "The flow diagrams are out of date (stale: docs/flows/shell/bootMachine.md; missing: docs/flows/player/playerMachine.md; " +
        "extra: docs/flows/streams/renamedMachine.md): run npm run flows"
    )
  })

  it("sees a stale index when a machine is added", () => {
    const added = expectedFlowFiles([...entries, { ...entries[0]!, exportName: "otherMachine", machine: machine("other") }])
    const drift = compareFlowFiles(added, expected)
    expect(drift.stale).toEqual(["README.md"])
    expect(drift.missing).toEqual(["shell/otherMachine.md"])
  })
})

describe("docs/flows on disk", () => {
  let dir = ""
  afterEach(async () => {
    if (dir !== "") await rm(dir, { recursive: true, force: true })
  })

  it("reads back what was written, reports files changed on disk, and is made whole again by regenerating", async () => {
    dir = await mkdtemp(join(tmpdir(), "flows-"))
    const expected = expectedFlowFiles(entries)
    await writeFlowFiles(dir, expected)
    expect(compareFlowFiles(expected, await readFlowFiles(dir))).toEqual({ stale: [], missing: [], extra: [] })

    await writeFile(join(dir, "shell/menuMachine.md"), "stateDiagram-v2\n")
    await rm(join(dir, "player/playerMachine.md"))
    await mkdir(join(dir, "old"))
    await writeFile(join(dir, "old/goneMachine.md"), "# gone\n")
    const message = flowDriftMessage(compareFlowFiles(expected, await readFlowFiles(dir)))
    expect(message).toContain("stale: docs/flows/shell/menuMachine.md")
    expect(message).toContain("missing: docs/flows/player/playerMachine.md")
    expect(message).toContain("extra: docs/flows/old/goneMachine.md")
    expect(message).toContain("run npm run flows")

    await writeFlowFiles(dir, expected)
    expect(await readFlowFiles(dir)).toEqual(expected)
    await expect(readFile(join(dir, "old/goneMachine.md"))).rejects.toThrow()
  })

  it("finds the machines a module exports, once each, and leaves its other exports alone", async () => {
    dir = await mkdtemp(join(tmpdir(), "machines-"))
    // the fixture modules import xstate like the real ones do
    await symlink(join(REPO_ROOT, "node_modules"), join(dir, "node_modules"), "dir")
    await mkdir(join(dir, "src/machines/shell/menus"), { recursive: true })
    const module = (id: string) =>
      `import { createMachine } from "xstate"\nexport const ${id}Machine = createMachine({ id: "${id}", initial: "a", states: { a: {} } })\n`
    await writeFile(
      join(dir, "src/machines/shell/bootMachine.ts"),
      `${module("boot")}export const BOOT_TEXT = "hi"\nexport const bootSelect = () => 1\n`
    )
    await writeFile(join(dir, "src/machines/shell/menus/menuMachine.ts"), `${module("menu")}export { menuMachine as sameMenu }\n`)
    await writeFile(join(dir, "src/machines/shell/helpers.ts"), "export const helper = { root: 1, config: {} }\n")
    const found = await loadFlowMachines(dir)
    expect(found.map(({ feature, source, exportName, machine }) => [feature, source, exportName, machine.id])).toEqual([
      ["shell", "src/machines/shell/bootMachine.ts", "bootMachine", "boot"],
      ["shell/menus", "src/machines/shell/menus/menuMachine.ts", "menuMachine", "menu"]
    ])
  })
})

// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from "vitest"
import { createActor, createMachine } from "xstate"
import { loadInspector } from "../../../src/adapters/devtools/inspector.ts"

describe("the Stately inspector under npm run dev", () => {
  afterEach(() => {
    vi.unstubAllEnvs()
    vi.restoreAllMocks()
  })

  it("stays away unless the page asks for it with ?inspect", async () => {
    expect(await loadInspector("")).toBeUndefined()
    expect(await loadInspector("?default=2")).toBeUndefined()
  })

  it("is never loaded by a build, whatever the address says", async () => {
    vi.stubEnv("DEV", false)
    expect(await loadInspector("?inspect")).toBeUndefined()
  })

  it("opens the visualizer and hears every event of an actor created with it", async () => {
    const opened = vi.spyOn(window, "open").mockImplementation(() => null)
    const inspect = await loadInspector("?inspect")
    expect(inspect).toBeDefined()
    expect(opened).toHaveBeenCalledTimes(1)
    const heard = vi.spyOn(inspect as { next: (event: unknown) => void }, "next")
    const toggle = createMachine({ id: "toggle", initial: "off", states: { off: { on: { flip: "on" } }, on: {} } })
    const actor = createActor(toggle, { inspect }).start()
    actor.send({ type: "flip" })
    expect(heard.mock.calls.map(([event]) => (event as { type: string }).type)).toContain("@xstate.event")
  })
})

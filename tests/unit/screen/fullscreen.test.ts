import { describe, expect, it, vi } from "vitest"
import { type AnyEventObject, createActor, setup } from "xstate"
import { createFullscreenActor } from "../../../src/adapters/screen/fullscreen.ts"
import { createPipActor } from "../../../src/adapters/screen/pip.ts"

class FakeDocument extends EventTarget {
  fullscreenEnabled = true
  fullscreenElement: unknown = null
  pictureInPictureEnabled = true
  pictureInPictureElement: unknown = null
  coarse = { matches: true, addEventListener: vi.fn(), removeEventListener: vi.fn() }
  defaultView = { matchMedia: vi.fn(() => this.coarse) }
  exitFullscreen = vi.fn(async () => {
    this.fullscreenElement = null
    this.dispatchEvent(new Event("fullscreenchange"))
  })
  exitPictureInPicture = vi.fn(async () => undefined)
}

const setupElements = () => {
  const doc = new FakeDocument()
  const container = Object.assign(new EventTarget(), {
    ownerDocument: doc,
    requestFullscreen: vi.fn(async () => {
      doc.fullscreenElement = container
      doc.dispatchEvent(new Event("fullscreenchange"))
    })
  })
  const video = Object.assign(new EventTarget(), {
    ownerDocument: doc,
    disablePictureInPicture: false,
    requestPictureInPicture: vi.fn(async () => undefined)
  })
  return { doc, container, video }
}

const run = (logic: ReturnType<typeof createFullscreenActor> | ReturnType<typeof createPipActor>, input: unknown) => {
  const facts: Array<AnyEventObject> = []
  const parent = createActor(
    setup({ actors: { adapter: logic as ReturnType<typeof createFullscreenActor> } }).createMachine({
      invoke: { id: "adapter", src: "adapter", input: input as never },
      on: { "*": { actions: ({ event }) => facts.push(event) } }
    })
  ).start()
  return { parent, facts, send: (event: AnyEventObject) => parent.getSnapshot().children.adapter?.send(event as never) }
}

describe("createFullscreenActor", () => {
  it("reports availability, width and a coarse pointer, and puts the whole player box fullscreen", async () => {
    const { doc, container, video } = setupElements()
    const { parent, facts, send } = run(createFullscreenActor(), { element: video, container })
    expect(facts).toEqual([
      { type: "screen.fullscreenAvailable", available: true },
      { type: "screen.pointer", touch: true }
    ])
    send({ type: "fullscreen.enter" })
    await Promise.resolve()
    expect(container.requestFullscreen).toHaveBeenCalled()
    expect(facts.at(-1)).toEqual({ type: "screen.fullscreenChanged", active: true })
    send({ type: "fullscreen.exit" })
    await Promise.resolve()
    expect(doc.exitFullscreen).toHaveBeenCalled()
    expect(facts.at(-1)).toEqual({ type: "screen.fullscreenChanged", active: false })
    parent.stop()
    expect(doc.coarse.removeEventListener).toHaveBeenCalled()
  })

  it("falls back to the video's own fullscreen where only that exists (iOS)", () => {
    const { doc, container, video } = setupElements()
    doc.fullscreenEnabled = false
    const webkitEnterFullscreen = vi.fn()
    const { facts, send } = run(createFullscreenActor(), { element: Object.assign(video, { webkitEnterFullscreen }), container })
    expect(facts[0]).toEqual({ type: "screen.fullscreenAvailable", available: true })
    send({ type: "fullscreen.enter" })
    expect(webkitEnterFullscreen).toHaveBeenCalled()
    expect(container.requestFullscreen).not.toHaveBeenCalled()
  })
})

describe("createPipActor", () => {
  it("reports availability and changes, and enters and leaves picture-in-picture", () => {
    const { doc, video } = setupElements()
    const { facts, send } = run(createPipActor(), { element: video })
    expect(facts).toEqual([{ type: "screen.pipAvailable", available: true }])
    send({ type: "pip.enter" })
    expect(video.requestPictureInPicture).toHaveBeenCalled()
    doc.pictureInPictureElement = video
    video.dispatchEvent(new Event("enterpictureinpicture"))
    expect(facts.at(-1)).toEqual({ type: "screen.pipChanged", active: true })
    send({ type: "pip.exit" })
    expect(doc.exitPictureInPicture).toHaveBeenCalled()
  })

  it("is unavailable where the page or the video forbids it", () => {
    const { video } = setupElements()
    video.disablePictureInPicture = true
    expect(run(createPipActor(), { element: video }).facts).toEqual([{ type: "screen.pipAvailable", available: false }])
  })
})

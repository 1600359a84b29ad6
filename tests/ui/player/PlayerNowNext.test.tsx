import { fireEvent, screen, waitFor, within } from "@testing-library/react"
import type Hls from "hls.js"
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"
import { api } from "../../../src/domain/contract/api.ts"
import { clockTime } from "../../../src/machines/streams/nowNextProgrammes.ts"
import { FakeHls } from "../../support/FakeHls.ts"
import { renderApp, resetApp } from "../../support/renderApp.tsx"
import { fakeGuide, programmeAround } from "../streams/guideFake.ts"

const media = {
  loadHls: async () => FakeHls as unknown as typeof Hls,
  hasMse: () => true,
  pageProtocol: () => "http:",
  isOnline: () => true
}

const sideList = () => screen.getByRole("complementary", { name: "Streams" })
const listItem = (name: RegExp) => within(sideList()).getByRole("button", { name }).closest("li") as HTMLElement
const titleArea = (name: string) => screen.getByRole("region", { name })

describe("the player pages: now and next", () => {
  beforeEach(() => {
    FakeHls.instances = []
    vi.spyOn(HTMLMediaElement.prototype, "play").mockImplementation(async () => undefined)
    vi.spyOn(HTMLMediaElement.prototype, "pause").mockImplementation(() => undefined)
    vi.spyOn(HTMLMediaElement.prototype, "load").mockImplementation(() => undefined)
  })
  afterEach(async () => {
    await resetApp()
    vi.restoreAllMocks()
  })

  it("shows what airs now and next under the player and in the side list, for the streams that have a guide", async () => {
    const at = Date.now()
    const next = programmeAround(at, 18, 78, "Match of the Day", "Live from the stadium")
    const guide = fakeGuide({ "Sports One": { now: programmeAround(at, -12, 18, "Evening News", "Headlines"), next } })
    await renderApp({ signedIn: true, path: "/player?default=0", media, wrapFetch: guide.wrapFetch })
    await screen.findByRole("heading", { level: 1, name: "Sports One" })

    const stage = titleArea("Sports One")
    expect(await within(stage).findByRole("progressbar", { name: "Live, 40% through" })).toBeTruthy()
    expect(within(stage).getByText("Evening News")).toBeTruthy()
    expect(within(stage).getByText("· Headlines")).toBeTruthy()
    expect(within(stage).getByText(clockTime(next.StartTime)).getAttribute("datetime")).toBe(next.StartTime)
    expect(within(stage).getByText("· Live from the stadium")).toBeTruthy()

    const item = listItem(/^Sports One/)
    expect(within(item).getByRole("progressbar", { name: "Live, 40% through" })).toBeTruthy()
    expect(within(item).getByText("Match of the Day")).toBeTruthy()
    // the item's name is what it was; what airs describes it
    const button = within(sideList()).getByRole("button", { name: /^Sports One/, description: /Evening News.*Match of the Day/ })
    expect(button.textContent).not.toContain("Evening News")

    const other = listItem(/^Sports Two/)
    expect(within(other).queryByRole("progressbar")).toBeNull()
    expect(within(other).queryByText("Next")).toBeNull()
  })

  it("follows the selection: a stream without a guide shows nothing under the player", async () => {
    const at = Date.now()
    // begun two minutes ago: too recently to be asked whether to start it from the beginning
    const guide = fakeGuide({ "Sports One": { now: programmeAround(at, -2, 18, "Evening News"), next: null } })
    await renderApp({ signedIn: true, path: "/player?default=0", media, wrapFetch: guide.wrapFetch })
    await within(await screen.findByRole("region", { name: "Sports One" })).findByRole("progressbar")

    fireEvent.click(within(sideList()).getByRole("button", { name: /^Sports Two/ }))
    const stage = await screen.findByRole("region", { name: "Sports Two" })
    expect(within(stage).queryByRole("progressbar")).toBeNull()
    expect(within(stage).queryByText("Now")).toBeNull()
    // the list still shows what airs on the other stream
    expect(within(listItem(/^Sports One/)).getByRole("progressbar")).toBeTruthy()
  })

  it("plays as usual when now/next cannot be loaded, and asks for it only after the list", async () => {
    const guide = fakeGuide({}, { fail: true })
    await renderApp({ signedIn: true, path: "/player?default=1", media, wrapFetch: guide.wrapFetch })
    await screen.findByRole("heading", { level: 1, name: "Sports Two" })
    await waitFor(() => expect(FakeHls.instances.at(-1)?.source).toMatch(/^\/live\/demo2\/index\.m3u8\?grant=g1\./))
    await waitFor(() => expect(guide.asked).toContain(api.nowNext.path))
    expect(guide.asked.indexOf(api.streams.path)).toBeLessThan(guide.asked.indexOf(api.nowNext.path))
    expect(screen.queryByRole("progressbar")).toBeNull()
    expect(screen.queryByRole("alert")).toBeNull()
  })
})

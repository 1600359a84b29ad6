import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"
import { answered, refused } from "../../../src/domain/contract/answer.ts"
import { type GuideSnapshot, selectChannels, selectSearch, selectStreamsUnavailable } from "../../../src/machines/guide/guideSelectors.ts"
import { stream, streams } from "../../support/machineFixtures.ts"
import { CHANNEL_ONE, DAYS, ELSEWHERE, failure, guideDays, NOW, ok, settle, startGuide } from "./guideFixtures.ts"

const found = (snapshot: GuideSnapshot) =>
  selectSearch(snapshot).results.map((result) => `${result.day} ${result.channel}: ${result.title}${result.live ? " (LIVE)" : ""}`)

const watchOf = (snapshot: GuideSnapshot, title: string) =>
  selectChannels(snapshot)
    .flatMap((channel) => channel.programmes)
    .find((programme) => programme.title === title)?.watch

describe("guideMachine: search across the seven days", () => {
  beforeEach(() => {
    vi.useFakeTimers()
    vi.setSystemTime(NOW)
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it("loads the other days one at a time once a search starts, and finds titles and subtitles in all of them", async () => {
    const { actor, requests } = startGuide()
    await settle()
    expect(selectSearch(actor.getSnapshot()).state).toBe("idle")

    actor.send({ type: "search.change", query: "final" })
    expect(selectSearch(actor.getSnapshot())).toMatchObject({ state: "searching", searchedDays: 1, totalDays: 7 })
    expect(found(actor.getSnapshot())).toEqual(["2026-11-23 Demo Channel 1: Cup Final"])
    await settle()
    expect(requests.map((request) => request.day)).toEqual(DAYS)
    expect(selectSearch(actor.getSnapshot())).toMatchObject({ state: "complete", searchedDays: 7, matches: 3 })
    // "The final score" is Saturday Sport's subtitle
    expect(found(actor.getSnapshot())).toEqual([
      "2026-11-23 Demo Channel 1: Cup Final",
      "2026-11-24 Demo Channel 1: Cup Final Replay",
      "2026-11-25 Elsewhere TV: Saturday Sport"
    ])
  })

  it("needs every word, ignores case and accents, and leaves out what has ended", async () => {
    const { actor } = startGuide()
    await settle()
    actor.send({ type: "search.change", query: "  CUP  replay " })
    await settle()
    expect(found(actor.getSnapshot())).toEqual(["2026-11-24 Demo Channel 1: Cup Final Replay"])
    actor.send({ type: "search.change", query: "pâsta" })
    expect(found(actor.getSnapshot())).toEqual(["2026-11-23 Elsewhere TV: Cooking Live (LIVE)"])
    actor.send({ type: "search.change", query: "morning match" })
    expect(selectSearch(actor.getSnapshot())).toMatchObject({ state: "complete", matches: 0, results: [] })
  })

  it("lists a programme that runs past midnight once, on the day it starts", async () => {
    const { actor } = startGuide()
    await settle()
    actor.send({ type: "search.change", query: "late show" })
    await settle()
    expect(found(actor.getSnapshot())).toEqual(["2026-11-23 Demo Channel 1: The Late Show"])
  })

  it("goes back to the day's channels when the search is cleared, and loads nothing twice", async () => {
    const { actor, requests } = startGuide()
    await settle()
    actor.send({ type: "search.change", query: "quiz" })
    await settle()
    actor.send({ type: "search.change", query: " " })
    expect(selectSearch(actor.getSnapshot()).state).toBe("idle")
    actor.send({ type: "search.change", query: "quiz" })
    expect(selectSearch(actor.getSnapshot()).state).toBe("complete")
    actor.send({ type: "day.choose", day: DAYS[3] ?? "" })
    await settle()
    expect(requests).toHaveLength(7)
  })

  it("says the search is incomplete when a day fails, and carries on from there when retried", async () => {
    const { actor, requests } = startGuide({
      schedule: ({ day }, count) => (count === 3 ? failure(500, "Database unavailable") : ok(guideDays[day] ?? []))
    })
    await settle()
    actor.send({ type: "search.change", query: "final" })
    await settle()
    expect(selectSearch(actor.getSnapshot())).toMatchObject({ state: "incomplete", searchedDays: 2 })
    expect(found(actor.getSnapshot())).toHaveLength(2)
    actor.send({ type: "search.retry" })
    await settle()
    expect(selectSearch(actor.getSnapshot())).toMatchObject({ state: "complete", searchedDays: 7, matches: 3 })
    expect(requests.map((request) => request.day)).toEqual([...DAYS.slice(0, 3), ...DAYS.slice(2)])
  })

  it("caps the list and says how many matched", async () => {
    const many = Array.from({ length: 60 }, (_, index) => ({
      StartTime: new Date(NOW + index * 60_000).toISOString(),
      EndTime: new Date(NOW + (index + 1) * 60_000).toISOString(),
      Title: `News ${index}`,
      Subtitle: ""
    }))
    const { actor } = startGuide({ schedule: () => ok([{ Channel: { Name: "News 24" }, EpgList: many }]) })
    await settle()
    actor.send({ type: "search.change", query: "news" })
    await settle()
    expect(selectSearch(actor.getSnapshot())).toMatchObject({ matches: 60 })
    expect(selectSearch(actor.getSnapshot()).results).toHaveLength(50)
  })
})

describe("guideMachine: Watch", () => {
  beforeEach(() => {
    vi.useFakeTimers()
    vi.setSystemTime(NOW)
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it("opens a LIVE programme on one of our streams in the chosen player, by its index in the streams list", async () => {
    const { actor } = startGuide({ player: 2 })
    await settle()
    expect(watchOf(actor.getSnapshot(), "Evening News")).toBe("/playersldp?default=2")
    // not on yet, or not one of our streams: nothing to watch
    expect(watchOf(actor.getSnapshot(), "Cup Final")).toBeNull()
    expect(watchOf(actor.getSnapshot(), "Cooking Live")).toBeNull()
  })

  it("uses the TV player when that is the viewer's choice, and follows LIVE as it moves", async () => {
    const { actor } = startGuide({ player: 1 })
    await settle()
    expect(watchOf(actor.getSnapshot(), "Evening News")).toBe("/player?default=2")
    await vi.advanceTimersByTimeAsync(15 * 60_000)
    expect(watchOf(actor.getSnapshot(), "Cup Final")).toBe("/player?default=2")
  })

  it("offers no Watch for a stream under maintenance, one without a source, or when the streams could not be loaded", async () => {
    const closed = [...streams.slice(0, 2), stream({ id: 3, title: "Sports One", maintenance_mode: true })]
    const inMaintenance = startGuide({ streamsAnswer: answered({ success: true, data: closed }) })
    const noSource = startGuide({
      streamsAnswer: answered({
        success: true,
        data: [...streams.slice(0, 2), stream({ id: 3, title: "Sports One", src: null, src_sldp: null })]
      })
    })
    const noStreams = startGuide({ streamsAnswer: refused(500, "Database unavailable") })
    await settle()
    for (const { actor } of [inMaintenance, noSource, noStreams]) {
      expect(selectChannels(actor.getSnapshot()).map((channel) => channel.name)).toEqual([CHANNEL_ONE, ELSEWHERE])
      expect(watchOf(actor.getSnapshot(), "Evening News")).toBeNull()
    }
  })

  it("says when the streams could not be loaded, and offers Watch once they load on Try again", async () => {
    let requests = 0
    const { actor } = startGuide({
      streamsAnswer: () => (requests++ === 0 ? refused(500, "Database unavailable") : answered({ success: true, data: streams }))
    })
    await settle()
    expect(selectStreamsUnavailable(actor.getSnapshot())).toBe(true)
    expect(watchOf(actor.getSnapshot(), "Evening News")).toBeNull()
    actor.send({ type: "streams.retry" })
    await settle()
    expect(selectStreamsUnavailable(actor.getSnapshot())).toBe(false)
    expect(watchOf(actor.getSnapshot(), "Evening News")).toBe("/playersldp?default=2")
  })

  it("offers Watch on LIVE search results too", async () => {
    const { actor } = startGuide()
    await settle()
    actor.send({ type: "search.change", query: "news" })
    await settle()
    expect(selectSearch(actor.getSnapshot()).results.map((result) => [result.title, result.watch])).toEqual([
      ["Evening News", "/playersldp?default=2"]
    ])
  })
})

import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"
import { answered, refused, SESSION_ENDED, unreachable } from "../../../src/domain/contract/answer.ts"
import { LIVE_POLL_MS } from "../../../src/domain/PlayerLimits.ts"
import { sourceFor } from "../../../src/domain/playerChoice.ts"
import { PLAYER_STREAMS_FAILED_MESSAGE } from "../../../src/machines/player/playerMachine.ts"
import { selectIsBuffering, selectIsPaused, selectIsPlaying } from "../../../src/machines/player/playerPlaybackMachine.ts"
import { withDefault } from "../../../src/machines/player/playerQuery.ts"
import {
  selectCastTags,
  selectCurrentStream,
  selectHasDragHandle,
  selectIndex,
  selectIsEmpty,
  selectIsReady,
  selectListError,
  selectLogo,
  selectMetadata,
  selectSearch,
  selectShowsHeader,
  selectShowsTitle,
  selectUnavailability
} from "../../../src/machines/player/playerSelectors.ts"
import { answers, stream, streams } from "../../support/machineFixtures.ts"
import { container, element, startHlsPlayer, startPlayer } from "../../support/playerHarness.ts"

describe("playerMachine: the page", () => {
  beforeEach(() => {
    vi.useFakeTimers()
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it("picks the source per player (SPEC §3)", () => {
    const [, , sports, noLowLatency] = streams
    expect(sourceFor(sports, 1)).toBe("/live/3/index.m3u8")
    expect(sourceFor(sports, 2)).toBe("/live/3/ll.m3u8")
    expect(sourceFor(noLowLatency, 2)).toBe("/live/4/index.m3u8")
  })

  it("loads the streams, then plays the ?default stream once the video is attached", async () => {
    const { actor, media, fullscreen, pip, cast, attach, child, send } = await startPlayer({ player: 2, index: 2 })
    expect(selectIsReady(actor.getSnapshot())).toBe(true)
    expect(media.inputs).toEqual([])

    await attach()
    expect(media.inputs).toEqual([{ element, lowLatency: true }])
    expect(fullscreen.inputs).toEqual([{ element, container }])
    expect(pip.inputs).toEqual([{ element }])
    // the low-latency player cannot cast: its cast adapter is told so, and loads no sender
    expect(cast.inputs).toEqual([{ element, canCast: false }])
    expect(media.sent("media.load")).toEqual([{ type: "media.load", source: "/live/3/ll.m3u8" }])
    expect(selectIsBuffering(child("playback"))).toBe(true)

    send({ type: "media.playing" })
    expect(selectIsPlaying(child("playback"))).toBe(true)
    send({ type: "media.waiting" })
    expect(selectIsBuffering(child("playback"))).toBe(true)
    send({ type: "media.paused" })
    expect(selectIsPaused(child("playback"))).toBe(true)
    expect(selectIsPlaying(child("playback"))).toBe(false)
  })

  it("switches streams without a reload: same adapters, new source, ?default rewritten", async () => {
    const { actor, media, cast, navigate, attach, send } = await startPlayer({ player: 1, index: 2 })
    await attach()
    expect(cast.inputs).toEqual([{ element, canCast: true }])
    send({ type: "media.playing" })

    send({ type: "player.select", index: 3 })
    expect(selectIndex(actor.getSnapshot())).toBe(3)
    expect(selectCurrentStream(actor.getSnapshot())?.title).toBe("Sports Two")
    expect(media.commands.at(-1)).toEqual({ type: "media.load", source: "/live/4/index.m3u8" })
    expect(media.inputs).toHaveLength(1)
    expect(media.stopped()).toBe(0)
    expect(navigate.mock.calls.map((call) => call[1])).toEqual([{ to: "/player?default=3", replace: true }])
  })

  it("tells the cast adapter what plays, so a connected device plays it too", async () => {
    const { cast, attach, send } = await startPlayer({ player: 1, index: 2 })
    await attach()
    const playing = () => cast.sent("cast.media").at(-1)
    expect(cast.sent("cast.media")).toHaveLength(1)
    expect(playing()).toMatchObject({ source: "/live/3/index.m3u8" })
    send({ type: "player.select", index: 3 })
    expect(playing()).toEqual({ type: "cast.media", source: "/live/4/index.m3u8", title: "Sports Two" })
  })

  it("keeps the rest of the query string when it rewrites ?default", async () => {
    const { actor, navigate, attach, send } = await startPlayer({ player: 2, index: 2, search: "?ui=8&default=2&from=home" })
    send({ type: "player.select", index: 3 })
    await attach()
    send({ type: "player.select", index: 2 })
    expect(navigate.mock.calls.map((call) => call[1])).toEqual([
      { to: "/playersldp?ui=8&default=3&from=home", replace: true },
      { to: "/playersldp?ui=8&default=2&from=home", replace: true }
    ])
    expect(selectSearch(actor.getSnapshot())).toBe("?ui=8&default=2&from=home")
  })

  it("adds ?default to a query that has none, in place where it has one", () => {
    expect(withDefault("", 1)).toBe("?default=1")
    expect(withDefault("?ui=4096", 0)).toBe("?ui=4096&default=0")
    expect(withDefault("?default=4&ui=8", 2)).toBe("?default=2&ui=8")
  })

  it("does not play a stream in maintenance or one that needs a subscription", async () => {
    const { actor, media, attach, send } = await startPlayer({ player: 2, index: 0 })
    await attach()
    expect(selectUnavailability(actor.getSnapshot())).toBe("maintenance")
    expect(media.sent("media.stop")).toHaveLength(1)
    expect(media.sent("media.load")).toEqual([])

    send({ type: "player.select", index: 1 })
    expect(selectUnavailability(actor.getSnapshot())).toBe("subscription")
    send({ type: "player.select", index: 2 })
    expect(selectUnavailability(actor.getSnapshot())).toBeNull()
    expect(media.commands.at(-1)).toEqual({ type: "media.load", source: "/live/3/ll.m3u8" })
  })

  it("remembers a selection made before the video is attached", async () => {
    const { media, navigate, attach, send } = await startPlayer({ player: 1, index: 2 })
    send({ type: "player.select", index: 3 })
    expect(navigate).toHaveBeenCalledWith(expect.anything(), { to: "/player?default=3", replace: true })
    await attach()
    expect(media.sent("media.load")).toEqual([{ type: "media.load", source: "/live/4/index.m3u8" }])
  })

  it("starts the first stream when ?default points past the list", async () => {
    const { actor } = await startPlayer({ index: 42 })
    expect(selectIndex(actor.getSnapshot())).toBe(0)
  })

  it("says so when there are no streams", async () => {
    const { actor } = await startPlayer({ loaded: answers("streams", answered({ success: true, data: [] })) })
    expect(selectIsEmpty(actor.getSnapshot())).toBe(true)
  })

  it("says why the list could not be loaded, and loads it again on retry", async () => {
    const { actor, send } = await startPlayer({
      loaded: answers(
        "streams",
        unreachable("network", "Could not reach the server."),
        refused(429, "Too many requests. Try again in 9 seconds."),
        SESSION_ENDED,
        answered({ success: true, data: streams })
      )
    })
    expect(selectListError(actor.getSnapshot())).toBe(`${PLAYER_STREAMS_FAILED_MESSAGE} Check your connection and try again.`)
    send({ type: "streams.retry" })
    await vi.advanceTimersByTimeAsync(0)
    expect(selectListError(actor.getSnapshot())).toBe(`${PLAYER_STREAMS_FAILED_MESSAGE} Too many requests. Try again in 9 seconds.`)
    send({ type: "streams.retry" })
    await vi.advanceTimersByTimeAsync(0)
    expect(selectListError(actor.getSnapshot())).toBe(`${PLAYER_STREAMS_FAILED_MESSAGE} Please try again in a moment.`)
    send({ type: "streams.retry" })
    await vi.advanceTimersByTimeAsync(0)
    expect(selectListError(actor.getSnapshot())).toBeNull()
    expect(selectIsReady(actor.getSnapshot())).toBe(true)
  })

  it("stops every adapter when the page goes away or the video is detached", async () => {
    const first = await startPlayer()
    await first.attach()
    first.send({ type: "media.detach" })
    expect([first.media.stopped(), first.fullscreen.stopped(), first.pip.stopped(), first.cast.stopped()]).toEqual([1, 1, 1, 1])

    const second = await startPlayer()
    await second.attach()
    second.actor.stop()
    expect(second.media.stopped()).toBe(1)
  })

  it("describes the selection as SPEC §3 media metadata, with the UI flags from the page", async () => {
    const tagged = stream({ id: 9, title: "Tagged", tags: "chromecast,HD,?English commentary,!Audio late", tags_sldp: "lls,?Low delay" })
    const { actor } = await startPlayer({
      player: 1,
      index: 0,
      ui: 256 + 512,
      loaded: answers("streams", answered({ success: true, data: [tagged] }))
    })
    expect(selectMetadata(actor.getSnapshot())).toMatchObject({
      media_id: "9",
      title: "Tagged",
      description: "HD · English commentary · Audio late",
      live: true,
      ui: 768
    })
    expect(selectCastTags(actor.getSnapshot())).toEqual({ airplay: false, chromecast: true })
  })

  it("learns from the source's timing whether it is live, seekable and how long it lasts", async () => {
    const { actor, attach, send, hls } = await startHlsPlayer({ player: 1, index: 2 })
    const kind = () => {
      const metadata = selectMetadata(actor.getSnapshot())
      return metadata === null ? null : { live: metadata.live, seekable: metadata.seekable, duration: metadata.duration }
    }
    /** the playlist hls.js has loaded, as the next probe (every 200 ms) finds it */
    const playlist = async (details: { live: boolean; edge: number; fragmentStart: number }) => {
      const level = hls().levels[0]
      if (level === undefined) throw new Error("no level")
      level.details = details
      hls().currentLevel = 0
      await vi.advanceTimersByTimeAsync(LIVE_POLL_MS)
    }
    // nothing known yet: the product streams live channels
    expect(kind()).toEqual({ live: true, seekable: false, duration: 0 })
    await attach()
    hls().parsed()
    await playlist({ live: true, edge: 59, fragmentStart: 0 })
    expect(kind()).toEqual({ live: true, seekable: false, duration: 0 })
    await playlist({ live: true, edge: 100, fragmentStart: 40 })
    expect(kind()).toEqual({ live: true, seekable: true, duration: 0 })
    // a playlist with an ENDLIST: a VOD of that length
    await playlist({ live: false, edge: 596.5, fragmentStart: 0 })
    expect(kind()).toEqual({ live: false, seekable: true, duration: 596.5 })
    // another source starts unknown again
    send({ type: "player.select", index: 3 })
    expect(kind()).toEqual({ live: true, seekable: false, duration: 0 })
    await vi.advanceTimersByTimeAsync(0)
    expect(hls().source).toBe("/live/4/index.m3u8")
  })

  it("decodes the UI flags into what the chrome shows: logo corner, drag handle, header and title", async () => {
    const chrome = async (ui: number) => {
      const { actor } = await startPlayer({ player: 1, index: 2, ui })
      const snapshot = actor.getSnapshot()
      return {
        logo: selectLogo(snapshot),
        handle: selectHasDragHandle(snapshot),
        header: selectShowsHeader(snapshot),
        title: selectShowsTitle(snapshot)
      }
    }
    expect(await chrome(0)).toEqual({
      logo: { src: "/images/3.jpg", href: "/", vertical: "top", horizontal: "left", clearsControls: true },
      handle: false,
      header: true,
      title: true
    })
    expect(await chrome(8 + 16)).toMatchObject({ logo: { vertical: "top", horizontal: "right" }, handle: true })
    // no controls 1024: a bottom logo needs no room for the bar
    expect(await chrome(32768 + 1024)).toMatchObject({ logo: { vertical: "bottom", horizontal: "left", clearsControls: false } })
    expect(await chrome(4096)).toMatchObject({ header: false, title: false })
    expect(await chrome(256)).toMatchObject({ header: true, title: false })
  })

  it("offers casting only in the TV player", async () => {
    const tagged = stream({ id: 9, title: "Tagged", tags: "chromecast,airplay", tags_sldp: "chromecast,airplay" })
    const { actor } = await startPlayer({ player: 2, index: 0, loaded: answers("streams", answered({ success: true, data: [tagged] })) })
    expect(selectCastTags(actor.getSnapshot())).toEqual({ airplay: false, chromecast: false })
  })
})

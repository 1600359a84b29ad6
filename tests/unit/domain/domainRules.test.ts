import { describe, expect, it } from "vitest"
import { inviteLink, rewardOptions } from "../../../src/domain/Invitation.ts"
import { loadErrorCode, MediaErrorCode, mediaErrorMessage } from "../../../src/domain/MediaError.ts"
import { hasUiFlag } from "../../../src/domain/PlayerUi.ts"
import { upcomingProgrammes } from "../../../src/domain/Schedule.ts"

describe("reward options", () => {
  it("runs from 0 to the points, stopping when the value would exceed the price", () => {
    expect(rewardOptions(3, 1, 10)).toEqual([0, 1, 2, 3])
    expect(rewardOptions(10, 2, 5)).toEqual([0, 1, 2])
    expect(rewardOptions(0, 1, 5)).toEqual([0])
  })
  it("builds the invite link", () => {
    expect(inviteLink("https://tv.example", "abc")).toBe("https://tv.example/register?invite=abc")
  })
})

describe("schedule ordering", () => {
  it("drops ended programmes, puts live first, then by start", () => {
    const now = Date.parse("2026-11-22T12:00:00Z")
    const entry = (start: string, end: string, title: string) => ({ StartTime: start, EndTime: end, Title: title, Subtitle: "" })
    const list = upcomingProgrammes(
      [
        entry("2026-11-22T14:00:00Z", "2026-11-22T15:00:00Z", "later"),
        entry("2026-11-22T10:00:00Z", "2026-11-22T11:00:00Z", "ended"),
        entry("2026-11-22T13:00:00Z", "2026-11-22T14:00:00Z", "next"),
        entry("2026-11-22T11:30:00Z", "2026-11-22T12:30:00Z", "live")
      ],
      now
    )
    expect(list.map((p) => [p.Title, p.live])).toEqual([
      ["live", true],
      ["next", false],
      ["later", false]
    ])
  })
})

describe("player UI flags and media errors", () => {
  it("reads the bit-mask", () => {
    expect(hasUiFlag(1 | 1024, "NO_FULLSCREEN")).toBe(true)
    expect(hasUiFlag(1 | 1024, "NO_CONTROLS")).toBe(true)
    expect(hasUiFlag(1 | 1024, "NO_MUTE")).toBe(false)
    expect(hasUiFlag(32768, "LOGO_BOTTOM")).toBe(true)
  })
  it("maps load failures to the catalogue", () => {
    expect(loadErrorCode("http://x/a.m3u8", "https:", true)).toBe(MediaErrorCode.MIXED_CONTENT)
    expect(loadErrorCode("https://x/a.m3u8", "https:", false)).toBe(MediaErrorCode.NO_INTERNET)
    expect(loadErrorCode("/live/a.m3u8", "http:", true)).toBe(MediaErrorCode.NETWORK)
    expect(mediaErrorMessage(1001)).toBe("Cannot load insecure content in a secure context")
    expect(mediaErrorMessage(42)).toBe("An unknown error occurred")
  })
})

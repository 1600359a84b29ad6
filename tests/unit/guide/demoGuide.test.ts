import { describe, expect, it } from "vitest"
import { localDayBounds, scheduleDays } from "../../../src/domain/ScheduleDays.ts"
import { demoProgramme, demoProgrammes } from "../../../src/server/guide/demoGuide.ts"

const MINUTE = 60_000
const from = Date.UTC(2026, 10, 22)

describe("the demo guide", () => {
  it("fills a week with back-to-back programmes of 30 to 120 minutes, with titles and subtitles", () => {
    const week = demoProgrammes("demo1.streamhub.demo", from, from + 7 * 24 * 60 * MINUTE)
    expect(week[0]?.start_at).toBe("2026-11-22T00:00:00.000Z")
    expect(Date.parse(week.at(-1)?.stop_at ?? "")).toBeGreaterThanOrEqual(from + 7 * 24 * 60 * MINUTE)
    week.forEach((programme, i) => {
      const minutes = (Date.parse(programme.stop_at) - Date.parse(programme.start_at)) / MINUTE
      expect(minutes).toBeGreaterThanOrEqual(30)
      expect(minutes).toBeLessThanOrEqual(120)
      expect(programme.title).not.toBe("")
      expect(programme.subtitle).not.toBe("")
      if (i > 0) expect(programme.start_at).toBe(week[i - 1]?.stop_at)
    })
    expect(new Set(week.map((p) => p.title)).size).toBeGreaterThan(8)
    expect(week.some((p) => p.title.startsWith("Football: "))).toBe(true)
  })

  it("gives a slot the same programme every time, and each channel its own", () => {
    expect(demoProgramme("demo1.streamhub.demo", from)).toEqual(demoProgramme("demo1.streamhub.demo", from))
    const one = demoProgrammes("demo1.streamhub.demo", from, from + 24 * 60 * MINUTE).map((p) => p.title)
    const two = demoProgrammes("demo2.streamhub.demo", from, from + 24 * 60 * MINUTE).map((p) => p.title)
    expect(one).not.toEqual(two)
  })
})

describe("local days of the guide", () => {
  it("span 25 hours in Europe/Oslo when summer time ends, and 23 when it starts", () => {
    const autumn = localDayBounds("2026-10-25", "Europe/Oslo")
    expect(new Date(autumn.start).toISOString()).toBe("2026-10-24T22:00:00.000Z")
    expect(new Date(autumn.end).toISOString()).toBe("2026-10-25T23:00:00.000Z")
    expect((autumn.end - autumn.start) / (60 * MINUTE)).toBe(25)
    const spring = localDayBounds("2026-03-29", "Europe/Oslo")
    expect((spring.end - spring.start) / (60 * MINUTE)).toBe(23)
    expect(scheduleDays(Date.parse("2026-10-24T22:30:00Z"), "Europe/Oslo")[0]).toBe("2026-10-25")
  })
})

import { describe, expect, it } from "vitest"
import { clockTime, programmesAt, sameProgrammes } from "../../../src/machines/streams/nowNextProgrammes.ts"
import { at, guide, programme, T0 } from "./nowNextFixtures.ts"

describe("now and next at an instant", () => {
  it("writes start times in 12-hour format, as the guide page does", () => {
    expect(clockTime(at(20), "UTC")).toBe("8:30 PM")
    expect(clockTime("2030-03-02T00:05:00.000Z", "UTC")).toBe("12:05 AM")
    expect(clockTime("2030-03-02T12:00:00.000Z", "UTC")).toBe("12:00 PM")
    expect(clockTime(at(20), "Europe/Oslo")).toBe("9:30 PM")
  })

  it("says nothing once every known programme has ended", () => {
    expect(programmesAt({ streamId: 3, now: programme(-60, -30, "Gone"), next: programme(-30, -1, "Also gone") }, T0)).toBeNull()
  })

  it("takes a programme that has not started yet for the next one, whichever slot it came in", () => {
    expect(programmesAt({ streamId: 3, now: programme(5, 30, "Soon"), next: null }, T0)).toEqual({
      now: null,
      next: { title: "Soon", subtitle: "", start: at(5), end: at(30) }
    })
  })

  it("tells a changed percentage or programme from a repaint of the same", () => {
    const entry = guide[0]!
    expect(sameProgrammes(programmesAt(entry, T0), programmesAt(entry, T0 + 1000))).toBe(true)
    expect(sameProgrammes(programmesAt(entry, T0), programmesAt(entry, T0 + 60_000))).toBe(false)
    expect(sameProgrammes(programmesAt(entry, T0), null)).toBe(false)
    expect(sameProgrammes(null, null)).toBe(true)
  })
})

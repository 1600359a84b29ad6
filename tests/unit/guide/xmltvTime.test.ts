import { describe, expect, it } from "vitest"
import { parseXmltvTime } from "../../../src/server/guide/xmltvTime.ts"

const utc = (text: string) => Date.parse(text)

describe("parseXmltvTime", () => {
  it("reads the offset and answers the instant", () => {
    expect(parseXmltvTime("20261123180000 +0100")).toBe(utc("2026-11-23T17:00:00Z"))
    expect(parseXmltvTime("20261123180000 -0530")).toBe(utc("2026-11-23T23:30:00Z"))
    expect(parseXmltvTime("20261123180000 +05:45")).toBe(utc("2026-11-23T12:15:00Z"))
    expect(parseXmltvTime("20261123180000+0000")).toBe(utc("2026-11-23T18:00:00Z"))
  })

  it("takes a time without a zone, or with UTC by name, as UTC", () => {
    expect(parseXmltvTime("20261123180000")).toBe(utc("2026-11-23T18:00:00Z"))
    expect(parseXmltvTime("20261123180000 UTC")).toBe(utc("2026-11-23T18:00:00Z"))
    expect(parseXmltvTime("20261123180000 gmt")).toBe(utc("2026-11-23T18:00:00Z"))
    expect(parseXmltvTime(" 20261123180000Z ")).toBe(utc("2026-11-23T18:00:00Z"))
  })

  it("accepts the shorter forms of the DTD", () => {
    expect(parseXmltvTime("202611231800 +0100")).toBe(utc("2026-11-23T17:00:00Z"))
    expect(parseXmltvTime("2026112318")).toBe(utc("2026-11-23T18:00:00Z"))
    expect(parseXmltvTime("20261123")).toBe(utc("2026-11-23T00:00:00Z"))
    expect(parseXmltvTime("202611")).toBe(utc("2026-11-01T00:00:00Z"))
    expect(parseXmltvTime("2026")).toBe(utc("2026-01-01T00:00:00Z"))
  })

  it("refuses what is no time", () => {
    for (const text of [
      "",
      "tomorrow",
      "2026-11-23T18:00:00Z",
      "20261323180000",
      "20260431120000",
      "20261123250000",
      "20261123180000 BST",
      "20261123180000 +2500",
      "2026112318000"
    ]) {
      expect(parseXmltvTime(text), text).toBeUndefined()
    }
  })
})

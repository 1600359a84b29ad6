import { describe, expect, it } from "vitest"
import { hasUiFlag, logoPlacement, UiFlag } from "../../../src/domain/PlayerUi.ts"
import { mediaMetadataFor, SITE_HOME, SITE_LOGO } from "../../../src/machines/player/playerMetadata.ts"
import { UNKNOWN_KIND } from "../../../src/machines/player/playerTiming.ts"
import { stream } from "../../support/machineFixtures.ts"

describe("the UI flag bit-mask (SPEC §3)", () => {
  it("has the flags of the spec, each its own bit", () => {
    expect(UiFlag).toMatchObject({ LOGO_RIGHT: 8, DRAG_HANDLE: 16, NO_HEADER: 4096, LOGO_BOTTOM: 32768 })
    const values = Object.values(UiFlag)
    expect(values.every((value) => Number.isInteger(Math.log2(value)))).toBe(true)
    expect(new Set(values).size).toBe(values.length)
  })

  it("reads a flag out of a mask with others set", () => {
    const mask = UiFlag.DRAG_HANDLE | UiFlag.NO_HEADER | UiFlag.NO_TITLE
    expect(hasUiFlag(mask, "DRAG_HANDLE")).toBe(true)
    expect(hasUiFlag(mask, "NO_HEADER")).toBe(true)
    expect(hasUiFlag(mask, "LOGO_RIGHT")).toBe(false)
    expect(hasUiFlag(mask, "LOGO_BOTTOM")).toBe(false)
  })

  it("puts the logo top-left unless LOGO_RIGHT (8) or LOGO_BOTTOM (32768) move it", () => {
    expect(logoPlacement(0)).toEqual({ vertical: "top", horizontal: "left" })
    expect(logoPlacement(8)).toEqual({ vertical: "top", horizontal: "right" })
    expect(logoPlacement(32768)).toEqual({ vertical: "bottom", horizontal: "left" })
    expect(logoPlacement(8 + 32768)).toEqual({ vertical: "bottom", horizontal: "right" })
    // other flags leave it where it is
    expect(logoPlacement(16 + 4096 + 1024)).toEqual({ vertical: "top", horizontal: "left" })
  })
})

describe("the logo in the media metadata", () => {
  it("is the stream's image, or the site's mark for a stream without one, leading to the site", () => {
    expect(mediaMetadataFor(stream({ id: 1, title: "One", image_location: "/img/1.svg" }), 1, 0, UNKNOWN_KIND)).toMatchObject({
      logo: "/img/1.svg",
      logo_href: SITE_HOME
    })
    expect(mediaMetadataFor(stream({ id: 2, title: "Two", image_location: "" }), 2, 0, UNKNOWN_KIND).logo).toBe(SITE_LOGO)
  })
})

import { describe, expect, it } from "vitest"
import { zoneName } from "../../../src/ui/guide/guideFormat.ts"

describe("the guide's name for the viewer's time zone", () => {
  it("says what people call the zone, not its IANA id, legacy ids included", () => {
    expect(zoneName("Asia/Calcutta")).toBe("India Standard Time")
    expect(zoneName("Asia/Kolkata")).toBe("India Standard Time")
    // the generic name, which holds on either side of a daylight-saving change
    expect(zoneName("America/Los_Angeles")).toBe("Pacific Time")
  })

  it("names UTC rather than giving an offset, and falls back to the id it does not know", () => {
    expect(zoneName("UTC")).toBe("Coordinated Universal Time")
    expect(zoneName("Mars/Olympus_Mons")).toBe("Mars/Olympus_Mons")
  })
})

import { describe, expect, it } from "vitest"
import { isMobileDevice } from "../../../src/adapters/device/device.ts"

describe("isMobileDevice", () => {
  it("prefers the client hint", () => {
    expect(isMobileDevice({ userAgent: "Mozilla/5.0 (iPhone)", userAgentData: { mobile: false } })).toBe(false)
    expect(isMobileDevice({ userAgent: "Mozilla/5.0 (X11; Linux x86_64)", userAgentData: { mobile: true } })).toBe(true)
  })

  it("falls back to the user agent string", () => {
    expect(isMobileDevice({ userAgent: "Mozilla/5.0 (Linux; Android 14) Mobile Safari/537.36" })).toBe(true)
    expect(isMobileDevice({ userAgent: "Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X)" })).toBe(true)
    expect(isMobileDevice({ userAgent: "Mozilla/5.0 (Windows NT 10.0; Win64; x64)" })).toBe(false)
    expect(isMobileDevice(undefined)).toBe(false)
  })
})

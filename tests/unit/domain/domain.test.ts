import { describe, expect, it } from "vitest"
import { shouldShowAnnouncement } from "../../../src/domain/Announcement.ts"
import { LoginRequest } from "../../../src/domain/contract/account.ts"
import { decodeWith } from "../../../src/domain/decode.ts"
import { ResultCode, resultCodeName } from "../../../src/domain/ResultCode.ts"
import { chooseStream, parseTags, Stream } from "../../../src/domain/Stream.ts"
import { NewTicket, streamRequestTicket, ticketCategoryName } from "../../../src/domain/Ticket.ts"
import {
  confirmationRule,
  deliverableEmail,
  EMAIL_MESSAGE,
  EMAIL_MESSAGE_INVITE_PAGE,
  Email,
  emailRule,
  isEmail,
  normaliseEmail,
  Password,
  passwordRule,
  usernameFromEmail,
  usernameRule
} from "../../../src/domain/Validation.ts"

describe("result codes", () => {
  it("has the 25 codes of the catalogue with their numbers", () => {
    expect(Object.keys(ResultCode)).toHaveLength(25)
    expect(ResultCode.SUCCESS).toBe(1)
    expect(ResultCode.EMAIL_AND_PASSWORD_DO_NOT_MATCH).toBe(12)
    expect(ResultCode.EMAIL_NOT_VERIFIED).toBe(13)
    expect(ResultCode.EMAIL_ALREADY_REGISTERED).toBe(14)
    expect(ResultCode.INVALID_INPUT).toBe(19)
    expect(ResultCode.EMAIL_TOKEN_EXPIRED).toBe(25)
    expect(resultCodeName(15)).toBe("USER_NOT_ACTIVE")
    expect(resultCodeName(99)).toBeUndefined()
  })
})

describe("validation rules", () => {
  it("accepts loose emails and rejects others with the exact message", () => {
    expect(emailRule("a@b.c")).toBeUndefined()
    expect(emailRule("a@b")).toBe(EMAIL_MESSAGE)
    expect(emailRule("no at.all")).toBe("Enter a valid email address.")
    expect(EMAIL_MESSAGE_INVITE_PAGE).toBe("Enter a valid email address")
  })
  it.each([
    ["a NUL", "ann\u0000@example.com"],
    ["a bell in the domain", "ann@exa\u0007mple.com"],
    ["an escape", "\u001b[31mann@example.com"],
    ["DEL", "ann@example.com\u007f"],
    ["a C1 control (NEL)", "ann@example\u0085.com"],
    ["a tab", "ann@exam\tple.com"],
    ["255 characters, one more than mail allows", `${"a".repeat(243)}@example.com`],
    ["non-ASCII text before the @ (no mail server takes it)", "dana.émile@example.com"],
    ["a non-ASCII local part and domain", "jürgen@bücher.de"],
    ["a port after an internationalised domain", "ann@bücher.de:25"],
    ["an internationalised domain too long once in ASCII", `${"a".repeat(245)}@ü.de`]
  ])("rejects an email with %s", (_, email) => {
    expect(isEmail(email)).toBe(false)
    expect(emailRule(email)).toBe(EMAIL_MESSAGE)
    expect(decodeWith(Email)(email)).toEqual({ ok: false, detail: "Enter a valid email address." })
  })
  it.each(["a@b.c", "ann.lee+tv@example.co.uk", "jurgen@bücher.de", "x@y.z.w", `${"a".repeat(242)}@example.com`])(
    "keeps accepting the loose shape: %s",
    (email) => {
      expect(isEmail(email)).toBe(true)
    }
  )
  it("checks usernames, passwords and confirmation", () => {
    expect(usernameRule("  ")).toBe("Please enter a username.")
    expect(usernameRule("bob")).toBeUndefined()
    expect(passwordRule("1234567")).toBe("Password length too short")
    expect(passwordRule("12345678")).toBeUndefined()
    expect(confirmationRule("abcdefgh")("abcdefgx")).toBe("Passwords do not match")
    expect(confirmationRule("abcdefgh")("abcdefgh")).toBeUndefined()
  })
  it("lower-cases emails and derives usernames", () => {
    expect(normaliseEmail("  Ann.Lee@Example.COM ")).toBe("ann.lee@example.com")
    expect(usernameFromEmail("ann.lee@example.com")).toBe("ann.lee")
  })
  it("gives an internationalised domain in the ASCII form mail carries, as stored and as mailed", () => {
    expect(normaliseEmail(" Dana@Bücher.DE ")).toBe("dana@xn--bcher-kva.de")
    expect(normaliseEmail("dana@xn--bcher-kva.de")).toBe("dana@xn--bcher-kva.de")
    expect(deliverableEmail("dana@bücher.de")).toBe("dana@xn--bcher-kva.de")
    expect(deliverableEmail("dana.émile@example.com")).toBeUndefined()
    expect(decodeWith(Email)("dana@bücher.de")).toEqual({ ok: true, value: "dana@bücher.de" })
    expect(usernameFromEmail("ann.lee@example.com")).toBe("ann.lee")
  })
  it("decodes with every problem in one detail", () => {
    const decode = decodeWith(LoginRequest)
    expect(decode({ email: "a@b.co", password: "x" })).toEqual({ ok: true, value: { email: "a@b.co", password: "x" } })
    const bad = decode({ email: "nope", password: 3 })
    expect(bad.ok).toBe(false)
    if (!bad.ok) {
      expect(bad.detail).toContain("email: Enter a valid email address.")
      expect(bad.detail).toContain("password:")
    }
    const pw = decodeWith(Password)("short")
    expect(pw).toEqual({ ok: false, detail: "Password length too short" })
    expect(decodeWith(Email)("x@y.z")).toEqual({ ok: true, value: "x@y.z" })
  })
})

describe("tickets", () => {
  it("validates with the exact messages", () => {
    const decode = decodeWith(NewTicket)
    expect(decode({ type: 3, subject: "s", description: "123456" }).ok).toBe(true)
    expect(decode({ type: 3, subject: "", description: "123456" })).toEqual({ ok: false, detail: "subject: Please enter a subject" })
    expect(decode({ type: 3, subject: "s", description: "12345" })).toEqual({
      ok: false,
      detail: "description: Please enter a description"
    })
    expect(decode({ type: 0, subject: "s", description: "123456" })).toEqual({ ok: false, detail: "type: Please select a vategory" })
  })
  it("names categories and builds stream requests", () => {
    expect(ticketCategoryName(2)).toBe("billing")
    expect(ticketCategoryName(9)).toBe("unknown")
    expect(streamRequestTicket("   ")).toBeUndefined()
    expect(streamRequestTicket(" Sky Sports 1 ")).toEqual({ type: 3, subject: "stream request", description: "Sky Sports 1" })
  })
})

describe("streams", () => {
  const stream = (over: Partial<Stream> = {}) =>
    new Stream({
      id: 1,
      title: "One",
      src: "/live/a.m3u8",
      src_sldp: "/live/a-ll.m3u8",
      image_location: "",
      tags: "",
      tags_sldp: "",
      maintenance_mode: false,
      ...over
    })
  it("parses tag conventions", () => {
    expect(parseTags("!Geo blocked, ?HD only,chromecast, AirPlay ,lls,Football,")).toEqual([
      { kind: "warning", text: "Geo blocked" },
      { kind: "info", text: "HD only" },
      { kind: "chromecast", text: "chromecast" },
      { kind: "airplay", text: "airplay" },
      { kind: "lls", text: "lls" },
      { kind: "label", text: "Football" }
    ])
  })
  it("chooses maintenance, purchase or the player with the index", () => {
    expect(chooseStream(stream({ maintenance_mode: true }), 0, 2)).toEqual({ kind: "maintenance" })
    expect(chooseStream(stream({ src: null, src_sldp: null }), 0, 1)).toEqual({ kind: "purchase" })
    expect(chooseStream(stream({ src: "" }), 0, 1)).toEqual({ kind: "purchase" })
    expect(chooseStream(stream(), 3, 1)).toEqual({ kind: "play", path: "/player?default=3" })
    expect(chooseStream(stream(), 4, 2)).toEqual({ kind: "play", path: "/playersldp?default=4" })
  })
})

describe("announcements", () => {
  it("shows a new token once", () => {
    const a = { resultCode: 1, token: "t2", title: "Hi", text: "News" }
    expect(shouldShowAnnouncement(a, null)).toBe(true)
    expect(shouldShowAnnouncement(a, "t1")).toBe(true)
    expect(shouldShowAnnouncement(a, "t2")).toBe(false)
    expect(shouldShowAnnouncement({ resultCode: 24 }, null)).toBe(false)
  })
})

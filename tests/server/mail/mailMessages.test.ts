import { describe, expect, it } from "vitest"
import {
  emailChangeConfirmationMail,
  emailChangeNoticeMail,
  passwordResetMail,
  verificationMail
} from "../../../src/server/account/accountMails.ts"
import { escapeHtml, firstLink, tokenLink } from "../../../src/server/mail/messages.ts"
import { ticketReplyMail } from "../../../src/server/support/supportMails.ts"

const SITE = { siteName: "StreamHub", publicUrl: "https://tv.example.com" }
const hrefs = (html: string) => [...html.matchAll(/href="([^"]*)"/g)].map((m) => m[1])

describe("mail messages", () => {
  it("links verification, reset and email-change mails to their pages, in both parts", () => {
    const cases = [
      [verificationMail({ ...SITE, to: "ann@example.com", token: "v-1" }), "verify", "/verify?token=v-1", "24 hours"],
      [passwordResetMail({ ...SITE, to: "ann@example.com", token: "r-1" }), "reset", "/password-reset-confirmation?token=r-1", "1 hour"],
      [
        emailChangeConfirmationMail({ ...SITE, to: "new@example.com", token: "c-1" }),
        "email-change",
        "/confirm-email-change?token=c-1",
        "24 hours"
      ]
    ] as const
    for (const [mail, kind, path, lifetime] of cases) {
      expect(mail.kind).toBe(kind)
      expect(mail.subject).toContain("StreamHub")
      expect(firstLink(mail.text)).toBe(`https://tv.example.com${path}`)
      expect(mail.text).toContain(`valid for ${lifetime}`)
      expect(hrefs(mail.html)).toEqual([`https://tv.example.com${path}`])
      expect(mail.html).toContain(`https://tv.example.com${path}</p>`)
    }
  })

  it("addresses the email-change confirmation to the new address", () => {
    const mail = emailChangeConfirmationMail({ ...SITE, to: "new@example.com", token: "t" })
    expect(mail.to).toBe("new@example.com")
  })

  it("tells the old address about an email change without a link and with the new address masked", () => {
    const mail = emailChangeNoticeMail({ ...SITE, to: "old@example.com", newEmail: "someone@new.example" })
    expect(mail).toMatchObject({ to: "old@example.com", kind: "email-change-notice" })
    expect(mail.text).toContain("s*****e@new.example")
    expect(mail.text).not.toContain("someone@")
    expect(firstLink(mail.text)).toBeUndefined()
    expect(hrefs(mail.html)).toEqual([])
    expect(emailChangeNoticeMail({ ...SITE, to: "o@x", newEmail: "ab@new.example" }).text).toContain("a*@new.example")
  })

  it("quotes a staff reply verbatim in text and escaped, line breaks kept, in HTML", () => {
    const message = "Hello,\n\nTry <script>alert('x')</script> & reload.\nThanks"
    const mail = ticketReplyMail({ ...SITE, to: "ann@example.com", ticketSubject: 'No "sound"', message })
    expect(mail).toMatchObject({ kind: "ticket-reply", subject: 'Re: No "sound" [StreamHub support]' })
    expect(mail.text).toContain(`\n\n${message}\n\n`)
    expect(mail.html).toContain("Try &lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; reload.\nThanks</div>")
    expect(mail.html).toContain("white-space:pre-wrap")
    expect(mail.html).not.toContain("<script>")
  })

  it("keeps user input from breaking the subject into extra headers", () => {
    const mail = ticketReplyMail({
      ...SITE,
      to: "ann@example.com",
      ticketSubject: "Help\r\nBcc: victim@example.com",
      message: "ok"
    })
    expect(mail.subject).toBe("Re: Help Bcc: victim@example.com [StreamHub support]")
    expect(mail.text).toContain('ticket "Help Bcc: victim@example.com"')
  })

  it("escapes the site name and the link in HTML", () => {
    const mail = verificationMail({
      siteName: "Tom & Jerry's <TV>",
      publicUrl: "https://tv.example.com/",
      to: "ann@example.com",
      token: 'a"b'
    })
    expect(mail.subject).toBe("Confirm your email address for Tom & Jerry's <TV>")
    expect(mail.html).toContain("<title>Tom &amp; Jerry&#39;s &lt;TV&gt;</title>")
    expect(mail.html).not.toContain("Jerry's <TV>")
    expect(hrefs(mail.html)).toEqual(["https://tv.example.com/verify?token=a%22b"])
  })

  it("builds token links from PUBLIC_URL with or without a trailing slash", () => {
    expect(tokenLink("https://tv.example.com", "/verify", "x")).toBe("https://tv.example.com/verify?token=x")
    expect(tokenLink("https://tv.example.com/app//", "/verify", "a+b/c=")).toBe("https://tv.example.com/app/verify?token=a%2Bb%2Fc%3D")
  })

  it("escapes every HTML-significant character", () => {
    expect(escapeHtml(`<a href="x">Tom & 'Jerry'</a>`)).toBe("&lt;a href=&quot;x&quot;&gt;Tom &amp; &#39;Jerry&#39;&lt;/a&gt;")
  })

  it("finds the first link in a text body", () => {
    expect(firstLink("Open\nhttps://a.example/x?token=1 or http://b.example")).toBe("https://a.example/x?token=1")
    expect(firstLink("no links here")).toBeUndefined()
  })
})

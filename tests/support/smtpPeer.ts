import type { AddressInfo } from "node:net"
import { SMTPServer } from "smtp-server"
import { WAIT_MS } from "./timeouts.ts"

// A real SMTP server on a free local port that keeps what it receives, for tests that need to
// read the mail the app sent (verification links and the like). It also parses just enough MIME
// to hand back the decoded plain-text and HTML parts.

export interface ReceivedMail {
  /** Envelope recipients, comma-separated: the address itself for the app's one-recipient mail. */
  to: string
  /** Envelope sender. */
  from: string
  subject: string
  /** The message as it came over the wire (RFC 822). */
  raw: string
  /** The decoded text/plain part, line breaks as `\n`. */
  text: string
  /** The decoded text/html part, or "" when there is none. */
  html: string
}

export interface SmtpPeer {
  /** `smtp://127.0.0.1:PORT`, for `smtpTransport`. */
  url: string
  messages: ReceivedMail[]
  /** While on, every recipient is refused with a temporary 451, like a relay having trouble. */
  setRejecting(rejecting: boolean): void
  /** The first message, already received or still to come (within WAIT_MS), that `predicate` accepts. */
  waitForMessage(predicate?: (mail: ReceivedMail) => boolean): Promise<ReceivedMail>
  stop(): Promise<void>
}

export async function startSmtpPeer(): Promise<SmtpPeer> {
  const messages: ReceivedMail[] = []
  const waiters = new Set<(mail: ReceivedMail) => void>()
  let rejecting = false

  const server = new SMTPServer({
    authOptional: true,
    // Plain SMTP on loopback: the client under test needs no TLS options and no test certificate.
    disabledCommands: ["STARTTLS"],
    logger: false,
    closeTimeout: 1000,
    onRcptTo(_address, _session, callback) {
      if (!rejecting) return callback()
      callback(Object.assign(new Error("Mailbox temporarily unavailable"), { responseCode: 451 }))
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = []
      stream.on("data", (chunk: Buffer) => chunks.push(chunk))
      stream.on("end", () => {
        const raw = Buffer.concat(chunks).toString("utf8")
        const parsed = parseMessage(raw)
        const mailFrom = session.envelope.mailFrom
        const mail: ReceivedMail = {
          to: session.envelope.rcptTo.map((r) => r.address).join(", "),
          from: mailFrom === false ? "" : mailFrom.address,
          subject: parsed.headers.get("subject") ?? "",
          raw,
          text: parsed.text,
          html: parsed.html
        }
        messages.push(mail)
        for (const waiter of waiters) waiter(mail)
        callback(null)
      })
    }
  })

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => resolve())
  })
  const { port } = server.server.address() as AddressInfo

  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    setRejecting: (value) => {
      rejecting = value
    },
    waitForMessage(predicate = () => true) {
      const found = messages.find(predicate)
      if (found) return Promise.resolve(found)
      return new Promise((resolve, reject) => {
        const waiter = (mail: ReceivedMail) => {
          if (!predicate(mail)) return
          waiters.delete(waiter)
          clearTimeout(timer)
          resolve(mail)
        }
        const timer = setTimeout(() => {
          waiters.delete(waiter)
          const seen = messages.map((m) => `"${m.subject}" to ${m.to}`).join("; ") || "none"
          reject(new Error(`no matching mail within ${WAIT_MS} ms (received: ${seen})`))
        }, WAIT_MS)
        waiters.add(waiter)
      })
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve()))
  }
}

export interface ParsedMessage {
  /** Lower-case names; values unfolded, encoded words decoded. */
  headers: Map<string, string>
  text: string
  html: string
}

/** Enough MIME for the mail this app sends: nested multiparts, base64 and quoted-printable, UTF-8. */
export function parseMessage(raw: string): ParsedMessage {
  const { headers, body } = splitEntity(raw.replace(/\r\n/g, "\n"))
  const parts = leaves(headers, body)
  const textOf = (type: string) => parts.find((p) => p.type === type)?.content ?? ""
  return { headers, text: textOf("text/plain"), html: textOf("text/html") }
}

function splitEntity(entity: string): { headers: Map<string, string>; body: string } {
  const end = entity.indexOf("\n\n")
  const head = end === -1 ? entity : entity.slice(0, end)
  const body = end === -1 ? "" : entity.slice(end + 2)
  const headers = new Map<string, string>()
  for (const line of head.replace(/\n[ \t]+/g, " ").split("\n")) {
    const colon = line.indexOf(":")
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), decodeWords(line.slice(colon + 1).trim()))
  }
  return { headers, body }
}

function leaves(headers: Map<string, string>, body: string): Array<{ type: string; content: string }> {
  const contentType = headers.get("content-type") ?? "text/plain"
  const type = contentType.split(";")[0]?.trim().toLowerCase() ?? "text/plain"
  if (type.startsWith("multipart/")) {
    const boundary = /boundary="?([^";]+)"?/i.exec(contentType)?.[1]
    if (boundary === undefined) return []
    const sections = body.split(`--${boundary}`).slice(1)
    return sections
      .filter((section) => !section.startsWith("--"))
      .flatMap((section) => {
        // The line break before a delimiter belongs to the delimiter, not to the part.
        const part = splitEntity(section.replace(/^[^\n]*\n/, "").replace(/\n$/, ""))
        return leaves(part.headers, part.body)
      })
  }
  const encoding = headers.get("content-transfer-encoding")?.toLowerCase() ?? "7bit"
  const bytes =
    encoding === "base64"
      ? Buffer.from(body.replace(/\s+/g, ""), "base64")
      : encoding === "quoted-printable"
        ? decodeQuotedPrintable(body)
        : Buffer.from(body, "utf8")
  return [{ type, content: bytes.toString("utf8").replace(/\r\n/g, "\n") }]
}

function decodeQuotedPrintable(body: string): Buffer {
  const joined = body.replace(/=\n/g, "")
  const bytes: number[] = []
  for (let i = 0; i < joined.length; i++) {
    const hex = joined.slice(i + 1, i + 3)
    if (joined[i] === "=" && /^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(Number.parseInt(hex, 16))
      i += 2
    } else {
      bytes.push(...Buffer.from(joined[i] ?? "", "utf8"))
    }
  }
  return Buffer.from(bytes)
}

/** RFC 2047 encoded words (`=?UTF-8?Q?...?=`), as nodemailer writes non-ASCII subjects. */
function decodeWords(value: string): string {
  return value
    .replace(/(\?=)\s+(=\?)/g, "$1$2")
    .replace(/=\?([^?]+)\?([BbQq])\?([^?]*)\?=/g, (_match, _charset: string, kind: string, text: string) =>
      kind.toUpperCase() === "B"
        ? Buffer.from(text, "base64").toString("utf8")
        : decodeQuotedPrintable(text.replace(/_/g, " ")).toString("utf8")
    )
}

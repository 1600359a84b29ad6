import { randomBytes } from "node:crypto"
import { mkdir, rename, writeFile } from "node:fs/promises"
import path from "node:path"
import type { SendMailOptions, Transporter } from "nodemailer"
import { firstLink } from "./messages.ts"

/** What a transport needs of an outbox row. */
export interface OutgoingMail {
  to: string
  subject: string
  text: string
  html: string
  /** Where the recipient's answer goes (Reply-To); without it, to the From address. */
  replyTo?: string
}

export interface MailTransport {
  /** For logs: where mail goes. Never includes credentials. */
  readonly description: string
  /** Resolves only once the mail is out of our hands (the SMTP server took it, the file is written). */
  send(mail: OutgoingMail): Promise<void>
  close(): void
}

/** Fastify's logger and `console` both fit. */
export interface MailLogger {
  info(message: string): void
  warn(message: string): void
  error(message: string): void
}

export interface TransportOptions {
  /** The From header, e.g. `StreamHub <no-reply@example.com>`. */
  from?: string
}

const DEFAULT_FROM = "no-reply@localhost"

/**
 * A nodemailer transporter made on the first mail: the library is a good share of the server's
 * code, and a server that sends no mail (most of its life) need not hold it in memory.
 */
function lazyTransporter(create: (mailer: typeof import("nodemailer").default) => Transporter<unknown>): {
  readonly sendMail: (mail: SendMailOptions) => Promise<{ rejected?: unknown; message?: unknown }>
  readonly close: () => void
} {
  let made: Promise<Transporter<unknown>> | undefined
  let closed = false
  return {
    sendMail: async (mail) => {
      if (closed) throw new Error("the mail transport is closed")
      made ??= import("nodemailer").then(({ default: mailer }) => create(mailer))
      return (await made).sendMail(mail) as Promise<{ rejected?: unknown; message?: unknown }>
    },
    close: () => {
      closed = true
      void made?.then(
        (transporter) => transporter.close(),
        () => undefined
      )
    }
  }
}

// Transactional mail must not set off autoresponders (RFC 3834), which would mail back to a
// no-reply address or, worse, loop.
const HEADERS = { "Auto-Submitted": "auto-generated" }

// Bodies are always strings here; refusing file paths and URLs as content keeps any later caller
// from turning a mail into a way to read the server's files or make it fetch a URL.
const NO_EXTERNAL_CONTENT = { disableFileAccess: true, disableUrlAccess: true }

/**
 * Delivers over SMTP. `smtpUrl` is an smtp:// or smtps:// URL with optional credentials and
 * nodemailer's query options (e.g. `?requireTLS=true`).
 */
export function smtpTransport(smtpUrl: string, options: TransportOptions = {}): MailTransport {
  const transporter = lazyTransporter((nodemailer) =>
    nodemailer.createTransport(
      {
        url: smtpUrl,
        // Bounded well below the worker's lease, so a hung server cannot outlive our claim on a mail.
        connectionTimeout: 30_000,
        greetingTimeout: 30_000,
        socketTimeout: 60_000,
        ...NO_EXTERNAL_CONTENT
      },
      { from: options.from ?? DEFAULT_FROM, headers: HEADERS }
    )
  )
  return {
    description: `SMTP ${redact(smtpUrl)}`,
    async send(mail) {
      const info = await transporter.sendMail(mail)
      const rejected = Array.isArray(info.rejected) ? info.rejected : []
      if (rejected.length > 0) throw new Error(`SMTP server rejected ${rejected.join(", ")}`)
    },
    close: () => transporter.close()
  }
}

/**
 * Writes each mail as an RFC 822 `.eml` file into `dir` and logs its first link, so a server
 * without SMTP still lets people verify and reset: the operator opens the file or the link.
 */
export function fileTransport(dir: string, logger: MailLogger, options: TransportOptions = {}): MailTransport {
  const composer = lazyTransporter((nodemailer) =>
    nodemailer.createTransport(
      { streamTransport: true, buffer: true, newline: "windows", ...NO_EXTERNAL_CONTENT },
      { from: options.from ?? DEFAULT_FROM, headers: HEADERS }
    )
  )
  return {
    description: `files in ${dir}`,
    async send(mail) {
      const { message } = await composer.sendMail(mail)
      if (!Buffer.isBuffer(message)) throw new Error("mail composer returned a stream, not a buffer")
      await mkdir(dir, { recursive: true })
      const name = `${new Date().toISOString().replace(/[:.]/g, "-")}-${randomBytes(4).toString("hex")}.eml`
      const file = path.join(dir, name)
      // Written aside and renamed, so whoever watches the directory never opens half a mail.
      // Owner-only: the links in it open accounts to whoever follows them.
      await writeFile(`${file}.tmp`, message, { mode: 0o600 })
      await rename(`${file}.tmp`, file)
      const link = firstLink(mail.text)
      logger.info(`mail to ${mail.to} "${mail.subject}" written to ${file}${link ? `; link: ${link}` : ""}`)
    },
    close: () => composer.close()
  }
}

export interface MailTransportConfig {
  smtpUrl?: string | undefined
  /** The `.eml` outbox is `<dataDir>/outbox`. */
  dataDir: string
  mailFrom: string
}

/** SMTP when configured, otherwise the `.eml` outbox; takes the server `Config` as it is. */
export function createTransport(config: MailTransportConfig, logger: MailLogger): MailTransport {
  const options = { from: config.mailFrom }
  return config.smtpUrl ? smtpTransport(config.smtpUrl, options) : fileTransport(path.join(config.dataDir, "outbox"), logger, options)
}

function redact(url: string): string {
  try {
    const parsed = new URL(url)
    if (parsed.password) parsed.password = "***"
    return parsed.toString()
  } catch {
    return "(unparseable URL)"
  }
}

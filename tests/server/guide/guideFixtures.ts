import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import type { Kysely } from "kysely"
import type { Tables } from "../../../src/server/db/schema.ts"
import { importGuide } from "../../../src/server/guide/importGuide.ts"

export interface FixtureProgramme {
  readonly channel: string
  /** ISO instant. */
  readonly start: string
  readonly stop?: string
  readonly title: string
  readonly subtitle?: string
}

const escapeXml = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/"/g, "&quot;")

/** `2026-11-23T17:00:00Z` → `20261123180000 +0100`, the way XMLTV files write local times. */
export function xmltvTime(iso: string, offsetMinutes = 60): string {
  const local = new Date(Date.parse(iso) + offsetMinutes * 60_000).toISOString()
  const sign = offsetMinutes < 0 ? "-" : "+"
  const abs = Math.abs(offsetMinutes)
  const offset = `${sign}${String(Math.floor(abs / 60)).padStart(2, "0")}${String(abs % 60).padStart(2, "0")}`
  return `${local.slice(0, 19).replace(/[-T:]/g, "")} ${offset}`
}

export function xmltv(channels: ReadonlyArray<{ id: string; name?: string }>, programmes: ReadonlyArray<FixtureProgramme>): string {
  return [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<!DOCTYPE tv SYSTEM "xmltv.dtd">`,
    `<tv source-info-name="test">`,
    ...channels.map(
      (c) =>
        `  <channel id="${escapeXml(c.id)}">${c.name === undefined ? "" : `<display-name lang="en">${escapeXml(c.name)}</display-name>`}</channel>`
    ),
    ...programmes.map(
      (p) =>
        `  <programme start="${xmltvTime(p.start)}"${p.stop === undefined ? "" : ` stop="${xmltvTime(p.stop)}"`} channel="${escapeXml(p.channel)}">` +
        `<title lang="en">${escapeXml(p.title)}</title>${p.subtitle === undefined ? "" : `<sub-title>${escapeXml(p.subtitle)}</sub-title>`}</programme>`
    ),
    `</tv>`,
    ""
  ].join("\n")
}

export async function* textOf(text: string, chunk = 4096): AsyncGenerator<string> {
  for (let i = 0; i < text.length; i += chunk) yield text.slice(i, i + chunk)
}

/** Imports a document as the CLI and the refresh job do, at `now`. */
export const load = (db: Kysely<Tables>, text: string, now = Date.parse("2026-11-20T00:00:00Z")) => importGuide(db, textOf(text), { now })

/** Programmes of `channel` every `minutes` from `from` to `to`, titled `${prefix} HH:MM`. */
export function hourly(channel: string, from: string, to: string, prefix: string, minutes = 60): Array<FixtureProgramme> {
  const rows: Array<FixtureProgramme> = []
  for (let t = Date.parse(from); t < Date.parse(to); t += minutes * 60_000) {
    const start = new Date(t).toISOString()
    rows.push({ channel, start, stop: new Date(t + minutes * 60_000).toISOString(), title: `${prefix} ${start.slice(11, 16)}` })
  }
  return rows
}

/** Everything the guide tables hold, in a stable order: what a failed import must leave alone. */
export async function guideSnapshot(db: Kysely<Tables>) {
  const programmes = await db.selectFrom("guide_programmes").selectAll().orderBy("channel_id").orderBy("start_at").execute()
  const channels = await db.selectFrom("guide_channels").select(["id", "name", "source"]).orderBy("id").execute()
  return { channels, programmes }
}

export async function stagedRows(db: Kysely<Tables>): Promise<number> {
  const row = await db
    .selectFrom("guide_staging")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirstOrThrow()
  return Number(row.n)
}

export interface GuideServer {
  readonly url: string
  /** Requests served so far. */
  readonly requests: () => number
  close(): Promise<void>
}

/**
 * Serves `body` at every path: all at once, or in `parts` pieces `delayMs` apart (a slow
 * provider); `status` other than 200 answers an error page instead.
 */
export async function serveGuide(
  body: string | Uint8Array,
  options: { parts?: number; delayMs?: number; status?: number } = {}
): Promise<GuideServer> {
  let requests = 0
  // the pauses between pieces end with the server, however long they were to be
  const pauses = new Set<NodeJS.Timeout>()
  const bytes = typeof body === "string" ? Buffer.from(body) : Buffer.from(body)
  const server: Server = createServer((_request, response) => {
    requests += 1
    if ((options.status ?? 200) !== 200) {
      response.writeHead(options.status ?? 500, { "content-type": "text/html" }).end("<html><body>Nope</body></html>")
      return
    }
    response.writeHead(200, { "content-type": "application/xml" })
    const parts = options.parts ?? 1
    const size = Math.ceil(bytes.length / parts)
    let sent = 0
    const next = () => {
      if (response.destroyed) return
      if (sent >= bytes.length) return void response.end()
      response.write(bytes.subarray(sent, sent + size))
      sent += size
      const pause = setTimeout(() => {
        pauses.delete(pause)
        next()
      }, options.delayMs ?? 0)
      pauses.add(pause)
    }
    next()
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/guide.xml`,
    requests: () => requests,
    close: () =>
      new Promise((resolve) => {
        for (const pause of pauses) clearTimeout(pause)
        server.closeAllConnections()
        server.close(() => resolve())
      })
  }
}

import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify"
import type { Kysely } from "kysely"
import type { Tables } from "../db/schema.ts"
import { createWriteBatcher, type WriteBatcher } from "../db/writeBatcher.ts"
import { networkOf } from "../http/clientNetwork.ts"
import type { Counters } from "../http/counters.ts"
import { waitText } from "../http/HttpFailure.ts"
import type { ConnectionGate, Refusal } from "./connectionGate.ts"
import { type GrantKey, readGrant } from "./streamGrants.ts"
import { recordUnknownViewers, type UnknownViewer } from "./unknownViewersRepo.ts"

// Every playlist: a player asks for its live playlist every few seconds, and the demo loop's
// segments are only found through a playlist it was given. A relayed channel's media (`m/`) need
// the grant too: their upstream's bytes are not ours to give to anyone who guesses a name.
const LIVE_PLAYLIST = /^\/live\/([^/]+)\/(?:p\/)?[^/]+\.m3u8$/
const RELAYED_MEDIA = /^\/live\/([^/]+)\/m\/[^/]+$/
/**
 * An edge that keeps media (deploy/nginx/streamhub-edge.conf) asks with this header whether a
 * viewer's grant admits them, then serves the media from its cache: the answer is 204 without a
 * body, or 403 for any refusal (nginx's auth_request takes no other), after which the edge sends
 * the viewer's request on to be answered in full.
 */
export const GRANT_CHECK_HEADER = "x-grant-check"
const RECORD_EVERY_MS = 10 * 1000
const MAX_REMEMBERED = 10_000
// a flood of made-up addresses must not fill the disk: past this many new rows a second, or an
// hour, the rest go unrecorded (and housekeeping keeps the newest UNKNOWN_VIEWER_ROWS)
const MAX_WRITES_PER_SECOND = 50
const MAX_WRITES_PER_HOUR = 3600
/**
 * Requests refused for want of a valid grant that one network may make within the window; past
 * them it is answered 429 at once and no longer recorded. A player asks for a playlist every
 * second or two, so a network of many real players refused at once (a grant key changed under
 * them) stays well within it, and a request with a valid grant is never counted.
 */
export const LIVE_REFUSALS_PER_WINDOW = 100
const LIVE_REFUSAL_WINDOW_MS = 10 * 1000

/** The client networks (IPv4 addresses, IPv6 /64s) refused by the origin, written at most every few seconds each. */
export interface UnknownViewers {
  record(ip: string, channel: string, at: number): void
  close(): Promise<void>
}

export function createUnknownViewers(db: Kysely<Tables>, onError: (error: unknown) => void): UnknownViewers {
  const written = new Map<string, number>()
  let second = 0
  let writesThisSecond = 0
  let hour = 0
  let writesThisHour = 0
  const writes: WriteBatcher<UnknownViewer> = createWriteBatcher({ db, commit: recordUnknownViewers, windowMs: 50 })
  return {
    record(address, channel, at) {
      // one row per client network: a host rotating through its IPv6 /64 is one unknown viewer
      const ip = networkOf(address)
      const last = written.get(ip)
      if (last !== undefined && at - last < RECORD_EVERY_MS) return
      const thisSecond = Math.floor(at / 1000)
      if (thisSecond !== second) {
        second = thisSecond
        writesThisSecond = 0
      }
      const thisHour = Math.floor(at / 3_600_000)
      if (thisHour !== hour) {
        hour = thisHour
        writesThisHour = 0
      }
      if (writesThisSecond >= MAX_WRITES_PER_SECOND || writesThisHour >= MAX_WRITES_PER_HOUR) return
      writesThisSecond += 1
      writesThisHour += 1
      written.delete(ip)
      written.set(ip, at)
      if (written.size > MAX_REMEMBERED) {
        const oldest = written.keys().next()
        if (oldest.done !== true) written.delete(oldest.value)
      }
      writes.write({ ip, channel: channel.slice(0, 64), at: new Date(at).toISOString() }).catch(onError)
    },
    close: () => writes.close()
  }
}

const DETAILS: Record<Refusal["reason"], string> = {
  invalid: "This stream needs a valid grant: open it from the site's player",
  expired: "This stream grant has expired: open the stream again",
  signedOut: "The session this stream was opened with has ended",
  staff: "Staff ended this connection",
  replaced: "This connection was ended to make room for another stream of the account",
  limit: "The account is already watching as many streams as it may at once"
}

const refuse = (reply: FastifyReply, refusal: Refusal, status: number = refusal.status) =>
  reply
    .code(status)
    .header("Cache-Control", "no-store")
    .send({ success: false, status, detail: DETAILS[refusal.reason], reason: refusal.reason })

export interface StreamGuardDeps {
  readonly key: () => Promise<GrantKey>
  readonly gate: ConnectionGate
  readonly unknown: UnknownViewers
  readonly counters: Counters
  readonly now: () => number
}

/**
 * Our origin's live playlists open only with a stream grant for their channel (`?grant=`); an
 * address without one is refused and shown to staff as an unknown viewer.
 */
export function registerStreamGuard(app: FastifyInstance, { key, gate, unknown, counters, now }: StreamGuardDeps): void {
  /** Answers a request it refuses (or a grant check) and gives that reply; undefined lets the request go on. */
  const guard = async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> => {
    const [pathname = "", search = ""] = request.url.split("?", 2)
    const channel = (LIVE_PLAYLIST.exec(pathname) ?? RELAYED_MEDIA.exec(pathname))?.[1]
    if (channel === undefined) return undefined
    const checkOnly = request.headers[GRANT_CHECK_HEADER] !== undefined
    const grant = readGrant(await key(), new URLSearchParams(search).get("grant"))
    if (grant === undefined || grant.channel !== channel) {
      const network = networkOf(request.ip)
      const { count, msLeft } = counters.addSoon(`live refused ${network}`, LIVE_REFUSAL_WINDOW_MS)
      if (count > LIVE_REFUSALS_PER_WINDOW) {
        const seconds = Math.max(1, Math.ceil(msLeft / 1000))
        return reply
          .code(429)
          .header("Cache-Control", "no-store")
          .header("Retry-After", String(seconds))
          .send({
            success: false,
            status: 429,
            detail: `Too many refused stream requests from your network. Try again in ${waitText(seconds)}.`
          })
      }
      unknown.record(request.ip, channel, now())
      return refuse(reply, { status: 403, reason: "invalid" })
    }
    const admission = await gate.admit(grant, request.ip)
    if (admission.ok) return checkOnly ? reply.code(204).header("Cache-Control", "no-store").send() : undefined
    if (admission.reason === "expired" || admission.reason === "signedOut") unknown.record(request.ip, channel, now())
    return refuse(reply, admission, checkOnly ? 403 : admission.status)
  }
  // Every request the server answers passes here: anything but our origin's GETs goes on at once,
  // without the promise an async hook costs.
  app.addHook("onRequest", (request, reply, done) => {
    if (!request.url.startsWith("/live/") || (request.method !== "GET" && request.method !== "HEAD")) {
      done()
      return
    }
    guard(request, reply).then((answered) => {
      if (answered === undefined) done()
    }, done)
  })
}

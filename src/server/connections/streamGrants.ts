import { createHmac, type KeyObject, timingSafeEqual } from "node:crypto"
import type { PlayerApp } from "../../domain/Connection.ts"

/**
 * What a stream grant says: this session's player may play this stream from this channel of our
 * origin. It travels in the playlist URL (`?grant=`), so a player, a prefetch and a cast device
 * all carry it without headers.
 */
export interface StreamGrant {
  readonly userId: number
  readonly sessionId: number
  readonly streamId: string
  readonly app: PlayerApp
  /** the origin channel whose playlists it opens */
  readonly channel: string
  /** when it was signed, epoch milliseconds */
  readonly issuedAt: number
}

/** A grant opens a connection within this long of being signed; an open connection keeps it alive. */
export const GRANT_START_MS = 2 * 60 * 1000

const VERSION = "g1"
const SIGNATURE_CHARS = 22 // 128 bits of HMAC-SHA-256, base64url
const CHANNEL = /^[A-Za-z0-9_-]{1,64}$/
const INTEGER = /^\d{1,15}$/

/** The grant key, as a key object: made once, it spares every signature re-reading the bytes. */
export type GrantKey = KeyObject

const signatureOf = (key: GrantKey, payload: string): string =>
  createHmac("sha256", key).update(payload).digest("base64url").slice(0, SIGNATURE_CHARS)

export function signGrant(key: GrantKey, grant: StreamGrant): string {
  const payload = [VERSION, grant.userId, grant.sessionId, grant.streamId, grant.app, grant.channel, grant.issuedAt].join(".")
  return `${payload}.${signatureOf(key, payload)}`
}

/** The grant a text carries, when its signature is ours; undefined for anything else. */
export function readGrant(key: GrantKey, text: unknown): StreamGrant | undefined {
  if (typeof text !== "string" || text.length > 256) return undefined
  const parts = text.split(".")
  if (parts.length !== 8) return undefined
  const [version, userId, sessionId, streamId, app, channel, issuedAt, signature] = parts as [
    string,
    string,
    string,
    string,
    string,
    string,
    string,
    string
  ]
  if (version !== VERSION || signature.length !== SIGNATURE_CHARS) return undefined
  const expected = Buffer.from(signatureOf(key, parts.slice(0, 7).join(".")))
  const given = Buffer.from(signature)
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined
  if (!INTEGER.test(userId) || !INTEGER.test(sessionId) || !INTEGER.test(streamId) || !INTEGER.test(issuedAt)) return undefined
  if ((app !== "tv" && app !== "lls") || !CHANNEL.test(channel)) return undefined
  return { userId: Number(userId), sessionId: Number(sessionId), streamId, app, channel, issuedAt: Number(issuedAt) }
}

/**
 * The channel of one of our origin's playlist addresses (`/live/{channel}/….m3u8`): a path, or an
 * address at our public URL or at `host`, the name the asking browser reached us by.
 */
export function ownChannelOf(src: string, publicUrl: string, host?: string): string | undefined {
  let path = src
  if (/^https?:\/\//i.test(src)) {
    let url: URL
    try {
      url = new URL(src)
    } catch {
      return undefined
    }
    if (url.origin !== new URL(publicUrl).origin && url.host !== host?.toLowerCase()) return undefined
    path = url.pathname
  }
  const match = /^\/live\/([A-Za-z0-9_-]{1,64})\/[^/?#]+\.m3u8(?:[?#].*)?$/.exec(path)
  return match?.[1]
}

/** The address with the grant added to its query. */
export function withGrant(src: string, grant: string): string {
  return grantSlot(src)(grant)
}

/** Adds a grant to this one address: where it goes is worked out once, for address after address. */
export function grantSlot(src: string): (grant: string) => string {
  const hash = src.indexOf("#")
  const [base, fragment] = hash === -1 ? [src, ""] : [src.slice(0, hash), src.slice(hash)]
  const head = `${base}${base.includes("?") ? "&" : "?"}grant=`
  return (grant) => `${head}${grant}${fragment}`
}

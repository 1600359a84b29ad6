/**
 * Several instances, one upstream connection per channel: the instance holding a channel's row
 * lease runs its feed, and the others take the channel from it over its internal paths, each
 * request signed with a key every instance shares.
 */
import { createHmac, timingSafeEqual } from "node:crypto"
import type { Kysely } from "kysely"
import { leaseOf, releaseLease, takeLease } from "../db/jobLease.ts"
import type { Tables } from "../db/schema.ts"
import { peerKey as readPeerKey } from "./feedsRepo.ts"

/** How long an owner's lease lasts without renewal: an owner that died is replaced within it. */
export const OWNER_LEASE_MS = 10_000
// a peer's signature is good for this long, so clocks a little apart still agree
const SIGNATURE_FOR_MS = 60_000

export const PEER_HEADERS = { signature: "x-relay-peer", instance: "x-relay-instance", viewers: "x-relay-viewers" } as const

const leaseName = (channel: string): string => `relay:${channel}`

/** Who holds a lease: the instance's address (where the others reach it), then its own id. */
const holderOf = (address: string, instance: string): string => `${address} ${instance}`

/** Which instance owns a relayed channel's feed, and this instance's part in it. */
export interface Owners {
  /** Takes or renews the channel's lease; otherwise the address of the instance that holds it. */
  claim(channel: string): Promise<{ readonly mine: true } | { readonly mine: false; readonly address: string | undefined }>
  /** The address of the instance holding the channel's lease, without trying to take it. */
  holder(channel: string): Promise<string | undefined>
  release(channel: string): Promise<void>
  /** Headers that let the owner serve this instance. */
  headers(viewers: number): ReadonlyArray<readonly [string, string]>
  /** Whether a request comes from another instance of this service. */
  verify(headers: Readonly<Record<string, string | Array<string> | undefined>>): Promise<boolean>
}

export function createOwners(options: {
  readonly db: Kysely<Tables>
  readonly address: string
  readonly instance: string
  readonly now: () => number
}): Owners {
  const { db, address, instance, now } = options
  const holder = holderOf(address, instance)
  let key: Promise<Buffer> | undefined
  const peerKey = (): Promise<Buffer> => {
    key ??= readPeerKey(db)
    key.catch(() => (key = undefined))
    return key
  }
  let signed: { readonly until: number; readonly value: string } | undefined
  const sign = (secret: Buffer, until: number): string => createHmac("sha256", secret).update(`${until}`).digest("base64url")
  let secret: Buffer | undefined
  // when each lease of ours was last taken: renewed in the database once a third of it has passed
  const renewed = new Map<string, number>()
  void peerKey().then(
    (value) => (secret = value),
    () => undefined
  )

  return {
    async claim(channel) {
      const at = now()
      secret ??= await peerKey()
      const taken = renewed.get(channel)
      if (taken !== undefined && at >= taken && at - taken < OWNER_LEASE_MS / 3) return { mine: true }
      if (await takeLease(db, { name: leaseName(channel), holder, now: at, until: at + OWNER_LEASE_MS })) {
        renewed.set(channel, at)
        return { mine: true }
      }
      renewed.delete(channel)
      const lease = await leaseOf(db, leaseName(channel))
      return { mine: false, address: lease?.holder.split(" ", 1)[0] || undefined }
    },
    async holder(channel) {
      const lease = await leaseOf(db, leaseName(channel))
      if (lease === undefined || Date.parse(lease.leasedUntil) <= now()) return undefined
      return lease.holder.split(" ", 1)[0] || undefined
    },
    release: (channel) => {
      renewed.delete(channel)
      return releaseLease(db, { name: leaseName(channel), holder, now: now() })
    },
    headers(viewers) {
      const at = Date.now()
      if (secret !== undefined && (signed === undefined || signed.until - at < SIGNATURE_FOR_MS / 2)) {
        const until = at + SIGNATURE_FOR_MS
        signed = { until, value: `${until}.${sign(secret, until)}` }
      }
      return [
        [PEER_HEADERS.signature, signed?.value ?? ""],
        [PEER_HEADERS.instance, instance],
        [PEER_HEADERS.viewers, String(viewers)]
      ]
    },
    async verify(headers) {
      const given = headers[PEER_HEADERS.signature]
      if (typeof given !== "string") return false
      const [untilText = "", mac = ""] = given.split(".", 2)
      const until = Number(untilText)
      if (!/^\d{1,15}$/.test(untilText) || until < Date.now() || until > Date.now() + 2 * SIGNATURE_FOR_MS) return false
      const expected = Buffer.from(sign(await peerKey(), until))
      const actual = Buffer.from(mac)
      return expected.length === actual.length && timingSafeEqual(expected, actual)
    }
  }
}

/** What the owner reads of a peer's request: who it is and for how many viewers of its own. */
export const peerOf = (headers: Readonly<Record<string, string | Array<string> | undefined>>): { instance: string; viewers: number } => {
  const instance = headers[PEER_HEADERS.instance]
  const viewers = Number(headers[PEER_HEADERS.viewers])
  return {
    instance: typeof instance === "string" ? instance.slice(0, 64) : "peer",
    viewers: Number.isSafeInteger(viewers) && viewers >= 0 ? Math.min(viewers, 1_000_000) : 0
  }
}

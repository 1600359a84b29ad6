import { type Kysely, PostgresAdapter } from "kysely"
import { accountSessions } from "../account/accountFeature.ts"
import type { Tables } from "../db/schema.ts"
import { createWriteBatcher } from "../db/writeBatcher.ts"
import { networkOf } from "../http/clientNetwork.ts"
import { startPeriodicJob } from "../http/periodicJob.ts"
import { type LiveConnectionRow, openConnectionsOf } from "./connectionsRepo.ts"
import { currentConnections, LIVE_CONNECTION_WINDOW_MS, type Presence, streamsElsewhere } from "./liveness.ts"
import { endedSince, endPlayer, openConnection, playerState, type Touch, touchConnections } from "./playersRepo.ts"
import { playerTokenOf } from "./playerTokens.ts"
import { GRANT_START_MS, type StreamGrant } from "./streamGrants.ts"

/** Why a grant was refused: by the origin's status, what the player tells the viewer. */
export type Refusal =
  | { readonly status: 403; readonly reason: "invalid" | "expired" | "signedOut" }
  | { readonly status: 410; readonly reason: "staff" | "replaced" }
  | { readonly status: 429; readonly reason: "limit"; readonly maxStreams: number }

export type Admission = { readonly ok: true; readonly connectionId: number } | ({ readonly ok: false } & Refusal)

export interface ConnectionGate {
  /** A playlist request carrying `grant` from `ip`: let through (opening its connection) or refused. */
  admit(grant: StreamGrant, ip: string): Promise<Admission>
  /** The player of `key` ended here: its next playlist request looks again. */
  forget(key: PlayerKey): void
  /** The player of a grant has stopped (its page closed): it no longer counts. */
  stop(grant: StreamGrant): Promise<void>
  close(): Promise<void>
}

export interface PlayerKey {
  readonly sessionId: number
  readonly streamId: string
  readonly app: string
}

export interface ConnectionGateDeps {
  readonly db: Kysely<Tables>
  readonly now: () => number
  /** the site setting `maxStreamsPerAccount`; 0 for no limit */
  readonly maxStreams: () => Promise<number>
  readonly onError: (error: unknown) => void
}

// A known connection's session is looked at again this often (a sign-out elsewhere ends its grants);
// connections ended anywhere are picked up every second (ENDED_POLL_MS).
const RECHECK_MS = 10 * 1000
const ENDED_POLL_MS = 1000
// A playing player asks for its playlist every few seconds; its last_seen needs far less.
const TOUCH_EVERY_MS = 10 * 1000
// ...except in a household where a player has just started: whether its other players play on
// (a second screen) or stopped (a switch) shows in their last_seen, so staff see a second screen
// within seconds of the grace (liveness.ts) rather than after the next ten-second touch.
const FRESH_TOUCH_MS = 1000
const HOUSEHOLD_WATCH_MS = 30 * 1000
const MAX_CACHED = 50_000

interface OpenRequest {
  readonly grant: StreamGrant
  readonly ip: string
  readonly tokenHash: string
  readonly at: number
  readonly limit: number
  /** set by the commit that opened (or refused) it */
  result?: Admission
}

interface Open {
  readonly id: number
  checkedAt: number
  /** the sessions' epoch when checked: a sign-out here since means checking again */
  epoch: number
  touchedAt: number
  ip: string
  readonly userId: number
}

// players that started together (a match kicking off) are looked at again spread out, not at once
const staggered = (at: number): number => at - Math.random() * (RECHECK_MS / 2)
const keyOf = (key: PlayerKey): string => `${key.sessionId}.${key.streamId}.${key.app}`
const iso = (ms: number): string => new Date(ms).toISOString()

/**
 * What liveness is judged on, of each row, with the row it came from. Players seen in one batch
 * share their timestamps, so each distinct one is read once (the staff view reads thousands of
 * rows at a time).
 */
export const presencesOf = <Row extends LiveConnectionRow>(rows: ReadonlyArray<Row>): Array<Presence & { readonly row: Row }> => {
  const parsed = new Map<string, number>()
  const time = (text: string): number => {
    let ms = parsed.get(text)
    if (ms === undefined) {
      ms = Date.parse(text)
      parsed.set(text, ms)
    }
    return ms
  }
  return rows.map((row) => ({
    id: row.id,
    userId: row.user_id,
    sessionId: row.session_id,
    streamId: row.stream_id,
    network: row.network,
    firstSeen: time(row.first_seen),
    lastSeen: time(row.last_seen),
    row
  }))
}

/**
 * The origin's check of stream grants. An open connection is remembered for a couple of seconds
 * so a player's frequent playlist requests cost no query; opening one counts the account's
 * streams elsewhere against its limit, one account at a time.
 */
export function createConnectionGate({ db, now, maxStreams, onError }: ConnectionGateDeps): ConnectionGate {
  const open = new Map<string, Open>()
  const touches = createWriteBatcher<Touch>({ db, commit: touchConnections, windowMs: 50 })
  const isPostgres = db.getExecutor().adapter instanceof PostgresAdapter

  // Ended connections, whichever instance ended them: their players are refused at the next playlist.
  let polledUntil = now()
  const poll = startPeriodicJob(
    async () => {
      const until = now()
      for (const key of await endedSince(db, iso(polledUntil - ENDED_POLL_MS))) open.delete(keyOf(key))
      polledUntil = until
    },
    { everyMs: ENDED_POLL_MS, firstAfterMs: ENDED_POLL_MS, onError }
  )

  const remember = (key: string, entry: Open): void => {
    open.delete(key)
    open.set(key, entry)
    if (open.size > MAX_CACHED) {
      const oldest = open.keys().next()
      if (oldest.done !== true) open.delete(oldest.value)
    }
  }

  // when a player last started in each household (account and network) this instance saw
  const households = new Map<string, number>()
  const householdOf = (userId: number, ip: string): string => `${userId} ${networkOf(ip)}`
  const started = (userId: number, ip: string, at: number): void => {
    const household = householdOf(userId, ip)
    households.delete(household)
    households.set(household, at)
    // oldest first: those past the watch are of no more use
    for (const [name, since] of households) {
      if (at - since < HOUSEHOLD_WATCH_MS && households.size <= MAX_CACHED) break
      households.delete(name)
    }
  }
  const touch = (entry: Open, ip: string, at: number): void => {
    const watched = at - (households.get(householdOf(entry.userId, ip)) ?? Number.NEGATIVE_INFINITY) < HOUSEHOLD_WATCH_MS
    if (at - entry.touchedAt < (watched ? FRESH_TOUCH_MS : TOUCH_EVERY_MS) && ip === entry.ip) return
    entry.touchedAt = at
    entry.ip = ip
    touches.write({ id: entry.id, ip, network: networkOf(ip), at: iso(at) }).catch(onError)
  }

  // Starts arrive in bursts (a match kicks off): they share commits, one account's after another's.
  const openIn = async (trx: Kysely<Tables>, { grant, ip, tokenHash, at, limit }: OpenRequest): Promise<Admission> => {
    const network = networkOf(ip)
    if (limit > 0) {
      // one account's starts queue up behind each other, so two at once cannot both squeeze in
      if (isPostgres) await trx.selectFrom("users").select("id").where("id", "=", grant.userId).forUpdate().execute()
      const rows = await openConnectionsOf(trx, grant.userId, iso(at - LIVE_CONNECTION_WINDOW_MS))
      const current = currentConnections(presencesOf(rows), at)
      if (streamsElsewhere(current, { sessionId: grant.sessionId, streamId: grant.streamId, network }) >= limit) {
        return { ok: false, status: 429, reason: "limit", maxStreams: limit }
      }
    }
    const id = await openConnection(trx, {
      userId: grant.userId,
      sessionId: grant.sessionId,
      token: playerTokenOf(tokenHash),
      streamId: grant.streamId,
      app: grant.app,
      ip,
      network,
      at: iso(at)
    })
    return { ok: true, connectionId: id }
  }
  const opens = createWriteBatcher<OpenRequest>({
    db,
    commit: async (trx, requests) => {
      for (const request of requests) request.result = await openIn(trx, request)
    }
  })
  const openFor = async (grant: StreamGrant, ip: string, tokenHash: string, at: number): Promise<Admission> => {
    const request: OpenRequest = { grant, ip, tokenHash, at, limit: await maxStreams() }
    await opens.write(request)
    return request.result ?? { ok: false, status: 403, reason: "invalid" }
  }

  return {
    async admit(grant, ip) {
      const at = now()
      const key = keyOf(grant)
      const known = open.get(key)
      if (known !== undefined && at - known.checkedAt < RECHECK_MS && known.epoch === accountSessions.epoch()) {
        touch(known, ip, at)
        return { ok: true, connectionId: known.id }
      }
      const epoch = accountSessions.epoch()
      const state = await playerState(db, grant.sessionId, grant.streamId, grant.app, iso(at))
      if (state === undefined || !state.session_active) {
        open.delete(key)
        return { ok: false, status: 403, reason: "signedOut" }
      }
      if (state.ended_at !== null && state.ended_reason !== "stopped" && Date.parse(state.ended_at) >= grant.issuedAt) {
        open.delete(key)
        return { ok: false, status: 410, reason: state.ended_reason === "staff" ? "staff" : "replaced" }
      }
      // a touch this instance has queued may not be committed yet
      const lastSeen = Math.max(state.last_seen === null ? 0 : Date.parse(state.last_seen), known?.id === state.id ? known.touchedAt : 0)
      const live = state.id !== null && state.ended_at === null && lastSeen >= at - LIVE_CONNECTION_WINDOW_MS
      if (live && state.id !== null) {
        const entry = known ?? { id: state.id, checkedAt: at, epoch: 0, touchedAt: 0, ip: "", userId: grant.userId }
        entry.checkedAt = staggered(at)
        entry.epoch = epoch
        remember(key, entry)
        touch(entry, ip, at)
        return { ok: true, connectionId: state.id }
      }
      if (at - grant.issuedAt > GRANT_START_MS) {
        open.delete(key)
        return { ok: false, status: 403, reason: "expired" }
      }
      const admission = await openFor(grant, ip, state.token_hash, at)
      if (admission.ok) {
        remember(key, { id: admission.connectionId, checkedAt: staggered(at), epoch, touchedAt: at, ip, userId: grant.userId })
        started(grant.userId, ip, at)
      } else open.delete(key)
      return admission
    },
    forget(key) {
      open.delete(keyOf(key))
    },
    async stop(grant) {
      open.delete(keyOf(grant))
      await endPlayer(db, grant, "stopped", iso(now()))
    },
    close: async () => {
      await poll.stop()
      await opens.close()
      await touches.close()
    }
  }
}

import { randomBytes } from "node:crypto"
import type { Kysely } from "kysely"
import type { FeedKind, StreamFeedRow, Tables } from "../db/schema.ts"

export type Header = readonly [string, string]

/** Every stream's feed, channel order. */
export async function listFeeds(db: Kysely<Tables>): Promise<Array<StreamFeedRow>> {
  return db.selectFrom("stream_feeds").selectAll().orderBy("channel").execute()
}

export async function findFeed(db: Kysely<Tables>, streamId: number): Promise<StreamFeedRow | undefined> {
  return db.selectFrom("stream_feeds").selectAll().where("stream_id", "=", streamId).executeTakeFirst()
}

export interface NewFeed {
  readonly kind: FeedKind
  readonly streamId: number
  readonly channel: string
  readonly upstreamUrl: string
  readonly headers: ReadonlyArray<Header>
  readonly alwaysOn: boolean
  readonly at: string
}

/** Adds the feed, or replaces the stream's feed. */
export async function saveFeed(db: Kysely<Tables>, feed: NewFeed): Promise<void> {
  const values = {
    channel: feed.channel,
    kind: feed.kind,
    upstream_url: feed.upstreamUrl,
    upstream_headers: JSON.stringify(feed.headers),
    always_on: feed.alwaysOn
  }
  await db
    .insertInto("stream_feeds")
    .values({ stream_id: feed.streamId, created_at: feed.at, ...values })
    .onConflict((oc) => oc.column("stream_id").doUpdateSet(values))
    .execute()
}

/** The headers a row keeps; a row written by hand that is not a list of pairs has none. */
export function headersOf(row: Pick<StreamFeedRow, "upstream_headers">): Array<Header> {
  try {
    const value: unknown = JSON.parse(row.upstream_headers)
    if (!Array.isArray(value)) return []
    return value.filter(
      (pair): pair is [string, string] =>
        Array.isArray(pair) && pair.length === 2 && typeof pair[0] === "string" && typeof pair[1] === "string"
    )
  } catch {
    return []
  }
}

export interface HealthRow {
  readonly channel: string
  readonly instance: string
  readonly state: string
  readonly figures: string
  readonly at: string
}

/** What this instance sees of the feeds it runs, over what was there. */
export async function writeHealth(db: Kysely<Tables>, rows: ReadonlyArray<HealthRow>): Promise<void> {
  if (rows.length === 0) return
  await db
    .insertInto("feed_health")
    .values(
      rows.map((row) => ({ channel: row.channel, instance: row.instance, state: row.state, figures: row.figures, updated_at: row.at }))
    )
    .onConflict((oc) =>
      oc.column("channel").doUpdateSet((eb) => ({
        instance: eb.ref("excluded.instance"),
        state: eb.ref("excluded.state"),
        figures: eb.ref("excluded.figures"),
        updated_at: eb.ref("excluded.updated_at")
      }))
    )
    .execute()
}

export async function readHealth(db: Kysely<Tables>): Promise<Array<HealthRow>> {
  const rows = await db.selectFrom("feed_health").selectAll().execute()
  return rows.map((row) => ({ channel: row.channel, instance: row.instance, state: row.state, figures: row.figures, at: row.updated_at }))
}

const PEER_KEY = "relay-peers"

/** The key the instances sign their requests to one another with: made by the first that needs it, shared by all. */
export async function peerKey(db: Kysely<Tables>): Promise<Buffer> {
  await db
    .insertInto("server_keys")
    .values({ name: PEER_KEY, value: randomBytes(32).toString("base64url") })
    .onConflict((oc) => oc.column("name").doNothing())
    .execute()
  const row = await db.selectFrom("server_keys").select("value").where("name", "=", PEER_KEY).executeTakeFirstOrThrow()
  return Buffer.from(row.value, "base64url")
}

import type { Kysely } from "kysely"
import type { Db } from "../db/database.ts"
import { THIS_PROCESS } from "../db/jobLease.ts"
import type { FeedKind, StreamFeedRow, Tables } from "../db/schema.ts"
import { keptFor } from "../http/keptFor.ts"
import { startPeriodicJob } from "../http/periodicJob.ts"
import type { Job } from "../http/serverFeature.ts"
import { siteSettings } from "../shell/shellFeature.ts"
import { type HealthRow, headersOf, listFeeds, writeHealth } from "./feedsRepo.ts"
import { IngestFeed, type Publisher } from "./ingestFeed.ts"
import { PulledFeed } from "./pulledFeed.ts"
import {
  type ChannelFeed,
  DEFAULT_RELAY_TIMING,
  type FeedHealth,
  RelayFeed,
  type RelayFeedDeps,
  type RelaySettings,
  type RelayTiming
} from "./relayFeed.ts"
import { createOwners, type Owners } from "./relayPeers.ts"
import { peerPath } from "./relayPlaylist.ts"
import { createRelayRing, DEFAULT_RING_CAPS, type RingCaps } from "./relayRing.ts"
import { type TimeshiftStorage, TimeshiftStore } from "./timeshiftStore.ts"

/** The relayed channels this instance serves, kept in step with `stream_feeds`. */
export interface RelayFeeds extends Job {
  /** The feed a viewer of the channel is served from, if it is relayed: ours, or the one following its owner. */
  feed(channel: string): Promise<ChannelFeed | undefined>
  /** The channel's own feed, for another instance, when this instance owns it (or can take it). */
  owned(channel: string): Promise<ChannelFeed | "elsewhere" | undefined>
  /** Every relayed channel's health as this instance sees it, channel order. */
  health(): Promise<Array<FeedHealth>>
  /**
   * An encoder with the key stored as `storedKey` wants to publish: its channel takes it, unless
   * it has a publisher already (here or at another instance) or there is no such key.
   */
  publish(storedKey: string, publisher: Publisher): Promise<PublishAnswer>
  readonly owners: Owners
}

export interface RelayFeedsDeps {
  readonly db: Kysely<Tables>
  readonly tableVersion: Db["tableVersion"]
  readonly now: () => number
  /** Where the other instances reach this one. */
  readonly address: string
  readonly timing?: Partial<RelayTiming>
  /** the ring's caps; the time-shift storage may come with them */
  readonly caps?: RingCaps
  /** where and how much of each channel's time-shift window is kept; without it there is none */
  readonly timeshift?: TimeshiftStorage
  /**
   * hours of time-shift, asked at every pass: kept as the caller keeps it (the origin shares one
   * read of the setting with its routes); without it, the site setting `timeshiftHours`, read
   * again every SETTING_FOR_MS
   */
  readonly timeshiftHours?: () => Promise<number>
  readonly onError: (error: unknown) => void
  /** Told after each reading of the feeds whether any is an ingest channel (the ingest ports are open only then). */
  readonly onIngestChannels?: (any: boolean) => void
}

export type PublishAnswer =
  | { readonly kind: "accepted"; readonly channel: string; readonly ended: () => void }
  | { readonly kind: "unknown" }
  | { readonly kind: "busy"; readonly channel: string; readonly elsewhere: boolean }

const TIDY_EVERY_MS = 2000
// the site setting is read again this often (the settings table has no change signal)
const SETTING_FOR_MS = 10_000
// a running feed's health is written this often, and at once when its state changes
const HEALTH_EVERY_MS = 5000
/** A health row older than this is of a feed nobody runs any more. */
export const HEALTH_FRESH_MS = 15_000
const INSTANCE = THIS_PROCESS

const settingsOf = (row: StreamFeedRow): RelaySettings => ({
  channel: row.channel,
  upstreamUrl: row.upstream_url,
  headers: headersOf(row),
  alwaysOn: row.always_on
})

const sameSettings = (a: RelaySettings, b: RelaySettings): boolean =>
  a.upstreamUrl === b.upstreamUrl && a.alwaysOn === b.alwaysOn && JSON.stringify(a.headers) === JSON.stringify(b.headers)

const FEEDS: Readonly<Record<FeedKind, new (settings: RelaySettings, deps: RelayFeedDeps) => ChannelFeed>> = {
  relay: RelayFeed,
  pull: PulledFeed,
  ingest: IngestFeed
}
const KINDS = new Set(Object.keys(FEEDS))

/**
 * One relayed channel on this instance. While it holds the channel's lease it runs the feed
 * from the upstream (`local`); while another instance does, a viewer here is served by a feed
 * that follows the owner (`peer`), with the same names and numbers.
 */
interface Channel {
  local: ChannelFeed
  kind: FeedKind
  peer: RelayFeed | undefined
  /** "self", the owner's address, or undefined while nobody here watches */
  owner: "self" | string | undefined
  claiming: Promise<void> | undefined
}

export function createRelayFeeds(options: RelayFeedsDeps): RelayFeeds {
  const { db, tableVersion, now, address, timing, caps, onError, onIngestChannels } = options
  const ring = createRelayRing(caps ?? DEFAULT_RING_CAPS)
  const timeshift = options.timeshift === undefined ? undefined : new TimeshiftStore(options.timeshift, { onError })
  // what the server left on disk: read before any feed runs, so each goes on from its window
  timeshift?.load()
  const timeshiftHours = options.timeshiftHours ?? keptFor(SETTING_FOR_MS, async () => (await siteSettings.inEffect(db)).timeshiftHours)
  const readHours = async (): Promise<void> => {
    if (timeshift === undefined) return
    timeshift.hours = await timeshiftHours()
    timeshift.prune()
  }
  const deps = { ring, now, timing: { ...DEFAULT_RELAY_TIMING, ...timing }, ...(timeshift === undefined ? {} : { timeshift }) }
  const owners = createOwners({ db, address, instance: INSTANCE, now })
  const channels = new Map<string, Channel>()
  let synced: { version: number | undefined; at: number; done: Promise<void> } | undefined

  const ownerUrl = (channel: string, ownerAddress: string): string => new URL(peerPath(channel, undefined, true), ownerAddress).href
  const followOwner = (channel: string, ownerAddress: string): RelayFeed => {
    const settings: RelaySettings = {
      channel,
      upstreamUrl: ownerUrl(channel, ownerAddress),
      headers: [],
      alwaysOn: false,
      peer: { headers: () => owners.headers(feed.viewerCount()) }
    }
    const feed: RelayFeed = new RelayFeed(settings, deps)
    return feed
  }

  // An ingest channel belongs to the instance its publisher is connected to: the others only find it.
  const mayTake = (channel: Channel): boolean => !(channel.local instanceof IngestFeed) || channel.local.isRunning
  const claimOrFind = async (channel: Channel): ReturnType<Owners["claim"]> =>
    mayTake(channel) ? owners.claim(channel.local.channel) : { mine: false, address: await owners.holder(channel.local.channel) }

  // Takes (or renews) the channel's lease, or finds who has it; one claim at a time per channel.
  const claim = (channel: Channel): Promise<void> => {
    channel.claiming ??= (async () => {
      try {
        const answer = await claimOrFind(channel)
        if (answer.mine) {
          const wasFollowing = channel.peer?.isRunning === true
          channel.peer?.stop()
          channel.peer = undefined
          channel.owner = "self"
          if (wasFollowing) channel.local.start()
          return
        }
        if (channel.owner === "self") channel.local.stop()
        channel.owner = answer.address
        const name = channel.local.channel
        if (answer.address === undefined && !mayTake(channel)) {
          channel.peer?.stop()
          channel.peer = undefined
        } else if (answer.address !== undefined && channel.peer?.settings.upstreamUrl !== ownerUrl(name, answer.address)) {
          const wasFollowing = channel.peer?.isRunning === true
          channel.peer?.stop()
          channel.peer = followOwner(name, answer.address)
          if (wasFollowing) channel.peer.start()
        }
      } finally {
        channel.claiming = undefined
      }
    })()
    return channel.claiming
  }

  // The rows as they are now: new feeds are made, changed ones start afresh, removed ones stop.
  const sync = async (): Promise<void> => {
    const rows = await listFeeds(db)
    const seen = new Set<string>()
    for (const row of rows) {
      // a kind this build does not know (a newer one wrote the row) is left to the instances that do
      if (!KINDS.has(row.kind)) continue
      seen.add(row.channel)
      const settings = settingsOf(row)
      const channel = channels.get(row.channel)
      if (channel === undefined || channel.kind !== row.kind) {
        const running = channel?.local.isRunning === true
        channel?.local.stop()
        const local = new FEEDS[row.kind](settings, deps)
        if (channel === undefined)
          channels.set(row.channel, { local, kind: row.kind, peer: undefined, owner: undefined, claiming: undefined })
        else {
          channel.local = local
          channel.kind = row.kind
        }
        if (running) local.start()
      } else if (!sameSettings(channel.local.settings, settings)) {
        const running = channel.local.isRunning
        channel.local.stop()
        channel.local.settings = settings
        if (running) channel.local.start()
      }
    }
    for (const [name, channel] of channels) {
      if (seen.has(name)) continue
      channel.local.stop()
      channel.peer?.stop()
      if (channel.owner === "self") await owners.release(name)
      channels.delete(name)
      timeshift?.drop(name)
    }
    onIngestChannels?.([...channels.values()].some((channel) => channel.kind === "ingest"))
  }
  // Read again when the table's version moves; without a version (PostgreSQL's listener away), every second.
  const current = (): Promise<void> => {
    const version = tableVersion("stream_feeds")
    const at = now()
    if (synced !== undefined && (version === undefined ? at - synced.at < 1000 : synced.version === version)) return synced.done
    const done = sync()
    synced = { version, at, done }
    done.catch(() => (synced = undefined))
    return done
  }

  // Each pass: leases renewed (or given up) for what runs here, owners that died replaced, health written.
  const keep = async (name: string, channel: Channel): Promise<void> => {
    const { local, peer } = channel
    local.tidy()
    peer?.tidy()
    const wanted = local.isRunning || peer?.isRunning === true || local.settings.alwaysOn
    if (!wanted) {
      if (channel.owner === "self") await owners.release(name)
      channel.owner = undefined
      return
    }
    await claim(channel)
    if (channel.owner === "self" && local.settings.alwaysOn && !local.isRunning) local.start()
  }

  const written = new Map<string, { readonly news: string; readonly at: number }>()
  const tidy = startPeriodicJob(
    async () => {
      await current()
      await readHours().catch(onError)
      const at = now()
      const rows: Array<HealthRow> = []
      for (const [name, channel] of channels) {
        const owned = channel.owner === "self"
        await keep(name, channel).catch(onError)
        const feed = channel.local
        // an owner's health, and its last word when it stops
        if (!owned && channel.owner !== "self") continue
        const health = feed.health()
        // written at once when the state, the upstream's answer or the error changes; otherwise now and then
        const news = `${health.state} ${health.upstreamStatus} ${health.lastError}`
        const last = written.get(name)
        const due =
          last === undefined ? health.state !== "idle" : last.news !== news || (health.state !== "idle" && at - last.at >= HEALTH_EVERY_MS)
        if (!due) continue
        written.set(name, { news, at })
        const { channel: _, state, ...figures } = health
        rows.push({ channel: name, instance: INSTANCE, state, figures: JSON.stringify(figures), at: new Date(at).toISOString() })
      }
      await writeHealth(db, rows)
    },
    { everyMs: TIDY_EVERY_MS, firstAfterMs: 0, onError }
  )

  const channelOf = async (name: string): Promise<Channel | undefined> => {
    await current()
    return channels.get(name)
  }

  return {
    owners,
    async feed(name) {
      const channel = await channelOf(name)
      if (channel === undefined) return undefined
      if (channel.owner === undefined || (channel.owner !== "self" && channel.peer === undefined)) await claim(channel).catch(onError)
      if (channel.owner === "self") return channel.local
      // nobody holds the lease and it could not be taken (the database is away): the upstream it is
      return channel.peer ?? channel.local
    },
    async owned(name) {
      const channel = await channelOf(name)
      if (channel === undefined) return undefined
      if (channel.owner !== "self") await claim(channel).catch(onError)
      return channel.owner === "self" ? channel.local : "elsewhere"
    },
    async health() {
      await current()
      return [...channels.values()].map((channel) => channel.local.health())
    },
    async publish(storedKey, publisher) {
      await current()
      const channel = [...channels.values()].find((each) => each.kind === "ingest" && each.local.settings.upstreamUrl === storedKey)
      if (channel === undefined || !(channel.local instanceof IngestFeed)) return { kind: "unknown" }
      const feed = channel.local
      const name = feed.channel
      if (feed.publishing) return { kind: "busy", channel: name, elsewhere: false }
      const answer = await owners.claim(name)
      if (!answer.mine) return { kind: "busy", channel: name, elsewhere: true }
      // the instance may have followed another until now
      channel.peer?.stop()
      channel.peer = undefined
      channel.owner = "self"
      if (feed.publish(publisher) === "busy") return { kind: "busy", channel: name, elsewhere: false }
      return { kind: "accepted", channel: name, ended: () => feed.unpublish(publisher) }
    },
    async stop() {
      await tidy.stop()
      for (const [name, channel] of channels) {
        channel.local.stop()
        channel.peer?.stop()
        if (channel.owner === "self") await owners.release(name).catch(onError)
      }
      // the server exits only once its ffmpeg children have: none outlives it
      await Promise.all([...channels.values()].map((channel) => channel.local.settled?.()))
      channels.clear()
      await timeshift?.settled()
    }
  }
}

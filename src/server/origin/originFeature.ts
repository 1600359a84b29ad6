import { existsSync } from "node:fs"
import { HOUR_MS } from "../../domain/Timeshift.ts"
import { feeds } from "../feeds/feedsFeature.ts"
import { keptFor } from "../http/keptFor.ts"
import type { FeatureDeps, ServerFeature } from "../http/serverFeature.ts"
import { siteSettings } from "../shell/shellFeature.ts"
import { DEMO_CHANNELS, type DemoChannel, type DemoSources, demoSources } from "./demoChannels.ts"
import { registerOrigin } from "./originRoutes.ts"
import { registerPosterRoutes } from "./posterRoutes.ts"

/**
 * Our live origin under `/live`: the demo channels it replays from the committed media, the
 * channels it relays from an upstream, and the demo channels' posters.
 */
export function originFeature({ db, tableVersion, config, now, log }: FeatureDeps): ServerFeature {
  // hours of every channel's time-shift window, as the site setting stands
  const timeshiftHours = keptFor(SETTING_FOR_MS, async () => (await siteSettings.inEffect(db)).timeshiftHours)
  const relays = feeds.create({
    db,
    tableVersion,
    now,
    address: config.instanceUrl,
    caps: config.relay.caps,
    timeshift: config.timeshift,
    timeshiftHours,
    timing: { lingerMs: config.relay.lingerMs },
    onError: (error) => log.warn({ err: error }, "relay: reading the feeds failed; the next pass tries again"),
    onIngestChannels: (any) => ingest.want(any)
  })
  const timeshiftMs = async () => (await timeshiftHours()) * HOUR_MS
  const ingest = feeds.ingest({ settings: config.ingest, feeds: () => relays, log: (level, message) => log[level](message) })
  return {
    async routes(app) {
      const loops = existsSync(config.mediaDir)
      if (!loops) log.warn(`no demo media at ${config.mediaDir}: only relayed channels are served under /live`)
      await app.register(async (scope) => {
        const otherChannel = feeds.routes(scope, relays, { index: !loops })
        if (loops) await registerOrigin(scope, { mediaDir: config.mediaDir, now, otherChannel, timeshiftMs })
      })
      registerPosterRoutes(app, DEMO_CHANNELS)
    },
    // the ports close first, so no publisher arrives at feeds that are stopping
    jobs: [ingest, relays]
  }
}

/** How long a read of the site settings is used before it is read again. */
const SETTING_FOR_MS = 10_000

/** A demo channel as the first start adds it to the streams, pointed at this origin's playlists. */
export interface DemoStream extends DemoChannel, DemoSources {}

/** The demo channels with the playlists the origin serves them at. */
export async function demoStreams(mediaDir: string): Promise<Array<DemoStream>> {
  return Promise.all(DEMO_CHANNELS.map(async (channel) => ({ ...channel, ...(await demoSources(mediaDir, channel.name)) })))
}

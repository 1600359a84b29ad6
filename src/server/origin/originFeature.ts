import { existsSync } from "node:fs"
import type { FeatureDeps, ServerFeature } from "../http/serverFeature.ts"
import { DEMO_CHANNELS, type DemoChannel, type DemoSources, demoSources } from "./demoChannels.ts"
import { registerOrigin } from "./originRoutes.ts"
import { registerPosterRoutes } from "./posterRoutes.ts"

/** The built-in live origin that replays the demo channels under `/live`, and their posters. */
export function originFeature({ config, now, log }: FeatureDeps): ServerFeature {
  return {
    async routes(app) {
      if (existsSync(config.mediaDir)) {
        await app.register(async (scope) => registerOrigin(scope, { mediaDir: config.mediaDir, now }))
      } else {
        log.warn(`no demo media at ${config.mediaDir}: the /live origin is off`)
      }
      registerPosterRoutes(app, DEMO_CHANNELS)
    }
  }
}

/** A demo channel as the first start adds it to the streams, pointed at this origin's playlists. */
export interface DemoStream extends DemoChannel, DemoSources {}

/** The demo channels with the playlists the origin serves them at. */
export async function demoStreams(mediaDir: string): Promise<Array<DemoStream>> {
  return Promise.all(DEMO_CHANNELS.map(async (channel) => ({ ...channel, ...(await demoSources(mediaDir, channel.name)) })))
}

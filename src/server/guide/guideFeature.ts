import { hostname } from "node:os"
import type { Command } from "../cli/command.ts"
import type { Config } from "../config.ts"
import type { FeatureDeps, ServerFeature } from "../http/serverFeature.ts"
import { siteSettings } from "../shell/shellFeature.ts"
import { addDemoChannel, demoGuideChannelId, keepDemoGuideAhead } from "./demoGuide.ts"
import { guideChannels, guideImport } from "./guideCommands.ts"
import { guideHandlers } from "./guideHandlers.ts"
import { type GuideRefreshOptions, startGuideRefresh } from "./guideRefresh.ts"

export interface GuideFeatureOptions {
  /** Timing of the refresh job, which runs until the app closes. */
  readonly refresh?: Pick<GuideRefreshOptions, "everyMs" | "firstAfterMs" | "holder">
}

/**
 * Who holds the refresh job's lease: the same after a restart of this instance, so one that was
 * killed mid-lease takes its own lease back when it comes up again instead of waiting six hours
 * for it to run out; instances on other machines, or on other ports of this one, differ.
 */
export const refreshHolder = (config: Pick<Config, "host" | "port">, host: string = hostname()): string =>
  `${host}:${config.host}:${config.port}`

/** The programme guide: XMLTV imports, the schedule by local day, and what airs now and next. */
export function guideFeature({ db, now, log, config }: FeatureDeps, options: GuideFeatureOptions = {}): ServerFeature {
  const refresh = startGuideRefresh({
    db,
    now,
    holder: refreshHolder(config),
    log: { info: (message) => log.info(message), warn: (message) => log.warn(message) },
    guideUrl: async () => (await siteSettings.inEffect(db)).guideUrl,
    ...options.refresh
  })
  return { handlers: guideHandlers(db, now), jobs: [refresh] }
}

export const guideCommands: ReadonlyArray<Command> = [guideImport, guideChannels]

/** What the first start asks of the guide: demo channels with a generated week of programmes. */
export const demoGuide = { channelId: demoGuideChannelId, addChannel: addDemoChannel, keepAhead: keepDemoGuideAhead } as const

import type { Command } from "../cli/command.ts"
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

/** The programme guide: XMLTV imports, the schedule by local day, and what airs now and next. */
export function guideFeature({ db, now, log }: FeatureDeps, options: GuideFeatureOptions = {}): ServerFeature {
  const refresh = startGuideRefresh({
    db,
    now,
    log: { info: (message) => log.info(message), warn: (message) => log.warn(message) },
    guideUrl: async () => (await siteSettings.inEffect(db)).guideUrl,
    ...options.refresh
  })
  return { handlers: guideHandlers(db, now), jobs: [refresh] }
}

export const guideCommands: ReadonlyArray<Command> = [guideImport, guideChannels]

/** What the first start asks of the guide: demo channels with a generated week of programmes. */
export const demoGuide = { channelId: demoGuideChannelId, addChannel: addDemoChannel, keepAhead: keepDemoGuideAhead } as const

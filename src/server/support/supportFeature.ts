import type { FeatureDeps, ServerFeature } from "../http/serverFeature.ts"
import { siteSettings } from "../shell/shellFeature.ts"
import { ticketHandlers } from "./ticketHandlers.ts"

/** Support tickets: customers open them, staff work them on the desk and answer by mail. */
export function supportFeature({ db, now, config, mailWorker }: FeatureDeps): ServerFeature {
  const site = async () => {
    const settings = await siteSettings.inEffect(db)
    return { siteName: settings.siteName, publicUrl: config.publicUrl, supportEmail: settings.supportEmail }
  }
  return { handlers: ticketHandlers({ db, now, site, mailWorker }) }
}

import { SITE_SETTING_KEYS } from "../../domain/SiteSettings.ts"
import { audit } from "../audit/auditFeature.ts"
import { type Command, requireText, UsageError } from "../cli/command.ts"
import { getSettings, setSetting } from "./settingsRepo.ts"
import { isSiteSettingKey, parseSettingValue, readSettingsInEffect } from "./siteSettings.ts"

export const settingsSet: Command = {
  name: "settings:set",
  usage: "--key K --value V",
  summary: `Set a site setting (${SITE_SETTING_KEYS.join(", ")})`,
  options: { key: { type: "string" }, value: { type: "string" } },
  async run(args, { db, out, now, operator }) {
    const key = requireText(args, "key")
    if (!isSiteSettingKey(key)) throw new UsageError(`--key must be one of ${SITE_SETTING_KEYS.join(", ")} (got "${key}")`)
    const text = args.value
    if (typeof text !== "string") throw new UsageError("--value is required")
    const parsed = parseSettingValue(key, text)
    if (!parsed.ok) throw new UsageError(`--value: ${parsed.message}`)
    // an address may carry a provider's credentials: the log keeps it without them
    const shown = typeof parsed.value === "string" ? audit.withoutSecrets(parsed.value) : parsed.value
    await db.transaction().execute(async (trx) => {
      await setSetting(trx, key, parsed.value)
      await audit.record(
        trx,
        audit.operator(operator),
        { action: "settings.set", target: `setting ${key}`, detail: JSON.stringify(shown) },
        now()
      )
    })
    out(`${key} = ${JSON.stringify(parsed.value)}`)
    return 0
  }
}

export const settingsGet: Command = {
  name: "settings:get",
  usage: "",
  summary: "Show the site settings in effect",
  options: {},
  async run(_args, { db, out }) {
    const [settings, stored] = await Promise.all([readSettingsInEffect(db), getSettings(db)])
    for (const key of SITE_SETTING_KEYS) {
      out(`${key} = ${JSON.stringify(settings[key])}${key in stored ? "" : " (default)"}`)
    }
    return 0
  }
}

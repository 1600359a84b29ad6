import type { Kysely } from "kysely"
import type { Command } from "../cli/command.ts"
import type { Db } from "../db/database.ts"
import type { Tables } from "../db/schema.ts"
import type { FeatureDeps, ServerFeature } from "../http/serverFeature.ts"
import { announce, maintenanceOff, maintenanceOn } from "./maintenanceCommands.ts"
import { onceEver, seedSettings } from "./seedSettings.ts"
import { lastServerAddress, rememberServerAddress } from "./serverAddress.ts"
import { settingsGet, settingsSet } from "./settingsCommands.ts"
import { shellHandlers } from "./shellHandlers.ts"
import { shellReads } from "./shellReads.ts"
import { readSettingsInEffect, readSiteSettings } from "./siteSettings.ts"

/** Maintenance mode, the announcement and the site settings. */
export function shellFeature({ db, tableVersion }: FeatureDeps): ServerFeature {
  return { handlers: shellHandlers(shellReads(db, tableVersion)) }
}

export const shellCommands: ReadonlyArray<Command> = [maintenanceOn, maintenanceOff, announce, settingsSet, settingsGet]

/** What other features read of the site settings: those browsers see, or all in effect. */
export const siteSettings = { read: readSiteSettings, inEffect: readSettingsInEffect } as const

/** The site's name and whether it is in maintenance: what a page prerendered at build time must still show. */
export async function siteNow(
  db: Kysely<Tables>,
  tableVersion: Db["tableVersion"]
): Promise<{ readonly siteName: string; readonly maintenance: boolean }> {
  const reads = shellReads(db, tableVersion)
  const [settings, maintenance] = await Promise.all([reads.siteSettings(), reads.maintenance()])
  return { siteName: settings.siteName, maintenance: maintenance.maintenance_mode }
}

/** The first start's steps: the settings in effect, and work done once ever on a database. */
export const firstStart = { seedSettings, onceEver } as const

/** The address the server last started with, for the operator CLI's links. */
export const serverAddress = { remember: rememberServerAddress, last: lastServerAddress } as const

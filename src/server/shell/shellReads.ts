import type { Kysely } from "kysely"
import type { Db } from "../db/database.ts"
import { keptWhileUnchanged } from "../db/keptWhileUnchanged.ts"
import type { AnnouncementRow, Tables } from "../db/schema.ts"
import { latestAnnouncement } from "./announcementsRepo.ts"
import { getMaintenance, type MaintenanceStatus } from "./maintenanceRepo.ts"
import { readSiteSettings, type SiteSettingsValues } from "./siteSettings.ts"

/**
 * What every page asks of the shell: the maintenance notice, the site settings browsers see and
 * the latest announcement. Each is kept while its table is unchanged (see keptWhileUnchanged.ts)
 * and shared by every request: none may change what it gets.
 */
export interface ShellReads {
  readonly maintenance: () => Promise<Readonly<MaintenanceStatus>>
  readonly siteSettings: () => Promise<Readonly<SiteSettingsValues>>
  readonly announcement: () => Promise<Readonly<AnnouncementRow> | undefined>
}

const cached = new WeakMap<Kysely<Tables>, ShellReads>()

/** One set per database; it keeps the first `version` it was given, as every caller on one database passes that database's. */
export function shellReads(db: Kysely<Tables>, version: Db["tableVersion"]): ShellReads {
  let reads = cached.get(db)
  if (reads === undefined) {
    reads = {
      maintenance: keptWhileUnchanged(
        async () => Object.freeze(await getMaintenance(db)),
        () => version("maintenance")
      ),
      siteSettings: keptWhileUnchanged(
        async () => Object.freeze(await readSiteSettings(db)),
        () => version("settings")
      ),
      announcement: keptWhileUnchanged(
        async () => {
          const latest = await latestAnnouncement(db)
          return latest === undefined ? undefined : Object.freeze(latest)
        },
        () => version("announcements")
      )
    }
    cached.set(db, reads)
  }
  return reads
}

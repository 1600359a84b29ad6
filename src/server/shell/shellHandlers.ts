import type { Kysely } from "kysely"
import type { shellContract } from "../../domain/contract/shell.ts"
import { ResultCode } from "../../domain/ResultCode.ts"
import type { Tables } from "../db/schema.ts"
import type { HandlersOf } from "../http/registerContract.ts"
import { latestAnnouncement } from "./announcementsRepo.ts"
import { getMaintenance } from "./maintenanceRepo.ts"
import { readSiteSettings } from "./siteSettings.ts"

export type ShellHandlers = HandlersOf<typeof shellContract>

export function shellHandlers(db: Kysely<Tables>): ShellHandlers {
  return {
    async maintenance() {
      const status = await getMaintenance(db)
      return {
        maintenanceMode: status.maintenance_mode,
        title: status.title,
        firstRowText: status.first_row_text,
        secondRowText: status.second_row_text
      }
    },

    async siteSettings() {
      return { success: true, data: await readSiteSettings(db) }
    },

    async announcement() {
      const latest = await latestAnnouncement(db)
      return latest === undefined
        ? { resultCode: ResultCode.NOT_FOUND }
        : { resultCode: ResultCode.SUCCESS, token: latest.token, title: latest.title, text: latest.text }
    }
  }
}

import type { Kysely } from "kysely"
import { ResultCode } from "../../domain/ResultCode.ts"
import { latestAnnouncement } from "./announcementsRepo.ts"
import { getMaintenance } from "./maintenanceRepo.ts"
import type { Tables } from "../db/schema.ts"
import { listStreams } from "../streams/streamsRepo.ts"
import type { Handler } from "../http/registerContract.ts"
import { readSiteSettings } from "./siteSettings.ts"

export interface ContentHandlers {
  maintenance: Handler<"maintenance">
  siteSettings: Handler<"siteSettings">
  announcement: Handler<"announcement">
  streams: Handler<"streams">
  timeSync: Handler<"timeSync">
}

export function contentHandlers(db: Kysely<Tables>, now: () => number): ContentHandlers {
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
    },

    async streams() {
      const rows = await listStreams(db)
      return {
        success: true,
        data: rows.map((row) => ({
          id: row.id,
          title: row.title,
          src: row.src,
          src_sldp: row.src_sldp,
          image_location: row.image_location,
          tags: row.tags,
          tags_sldp: row.tags_sldp,
          maintenance_mode: row.maintenance_mode
        }))
      }
    },

    async timeSync() {
      return { millisUtc: now() }
    }
  }
}

import type { Kysely } from "kysely"
import type { Tables } from "../db/schema.ts"
import type { Handler } from "../http/registerContract.ts"
import { listStreams } from "./streamsRepo.ts"

export interface StreamHandlers {
  streams: Handler<"streams">
}

export function streamHandlers(db: Kysely<Tables>): StreamHandlers {
  return {
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
    }
  }
}

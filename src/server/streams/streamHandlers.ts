import type { Kysely } from "kysely"
import type { Tables } from "../db/schema.ts"
import type { Handler } from "../http/registerContract.ts"
import type { Session } from "../http/session.ts"
import { listStreams } from "./streamsRepo.ts"

export interface StreamHandlers {
  streams: Handler<"streams">
}

/** Our own origin's streams come back with the session's grants in their addresses. */
export type SignStreams = <T extends { readonly id: number; readonly src: string | null; readonly src_sldp: string | null }>(
  session: Session,
  streams: ReadonlyArray<T>,
  /** the name the browser reached us by: an address there is our own origin too */
  host?: string
) => Promise<Array<T>>

export function streamHandlers(db: Kysely<Tables>, sign: SignStreams): StreamHandlers {
  return {
    async streams({ session, request }) {
      const rows = await listStreams(db)
      return {
        success: true,
        data: (await sign(session, rows, request.host)).map((row) => ({
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

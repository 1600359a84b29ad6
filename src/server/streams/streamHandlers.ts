import type { Handler } from "../http/registerContract.ts"
import type { Session } from "../http/session.ts"
import type { StreamList } from "./streamListCache.ts"

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

/** `list` answers rows shared with other requests: the signer and the answer copy, never change them. */
export function streamHandlers(list: () => Promise<StreamList>, sign: SignStreams): StreamHandlers {
  return {
    async streams({ session, request }) {
      const rows = await list()
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

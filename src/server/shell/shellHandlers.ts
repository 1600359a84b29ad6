import type { shellContract } from "../../domain/contract/shell.ts"
import { ResultCode } from "../../domain/ResultCode.ts"
import type { HandlersOf } from "../http/registerContract.ts"
import type { ShellReads } from "./shellReads.ts"

export type ShellHandlers = HandlersOf<typeof shellContract>

/** Every page asks these: they answer from the reads kept while their tables are unchanged. */
export function shellHandlers(reads: ShellReads): ShellHandlers {
  return {
    async maintenance() {
      const status = await reads.maintenance()
      return {
        maintenanceMode: status.maintenance_mode,
        title: status.title,
        firstRowText: status.first_row_text,
        secondRowText: status.second_row_text
      }
    },

    async siteSettings() {
      return { success: true, data: await reads.siteSettings() }
    },

    async announcement() {
      const latest = await reads.announcement()
      return latest === undefined
        ? { resultCode: ResultCode.NOT_FOUND }
        : { resultCode: ResultCode.SUCCESS, token: latest.token, title: latest.title, text: latest.text }
    }
  }
}

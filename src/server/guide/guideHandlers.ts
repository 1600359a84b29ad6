import type { Kysely } from "kysely"
import type { guideContract } from "../../domain/contract/guide.ts"
import type { EpgEntry, NowNext, ScheduleItem } from "../../domain/Schedule.ts"
import { localDayBounds } from "../../domain/ScheduleDays.ts"
import { windowStartOf } from "../../domain/Timeshift.ts"
import type { Tables } from "../db/schema.ts"
import type { HandlersOf } from "../http/registerContract.ts"
import { siteSettings } from "../shell/shellFeature.ts"
import { nowNextRows, type ScheduleRow, scheduleRows, windowRows } from "./guideQueries.ts"

export type GuideHandlers = HandlersOf<typeof guideContract>

const entry = (row: { start_at: string; stop_at: string; title: string; subtitle: string }): EpgEntry => ({
  StartTime: row.start_at,
  EndTime: row.stop_at,
  Title: row.title,
  Subtitle: row.subtitle
})

/** Rows arrive channel by channel; each run of one channel (on one stream) is an item. */
function scheduleItems(rows: ReadonlyArray<ScheduleRow>): Array<ScheduleItem> {
  const items: Array<{ key: string; Channel: ScheduleItem["Channel"]; EpgList: Array<EpgEntry> }> = []
  for (const row of rows) {
    const key = `${row.channel_id}\n${row.stream_id ?? ""}`
    let item = items.at(-1)
    if (item?.key !== key) {
      // viewers know a channel by the name the streams grid gives it
      const Channel =
        row.stream_id === null ? { Name: row.channel_name } : { Name: row.stream_title ?? row.channel_name, StreamId: row.stream_id }
      item = { key, Channel, EpgList: [] }
      items.push(item)
    }
    item.EpgList.push(entry(row))
  }
  return items.map(({ Channel, EpgList }) => ({ Channel, EpgList }))
}

/** The largest id a row can have on both databases (PostgreSQL's integer). */
const MAX_ROW_ID = 2_147_483_647

export function guideHandlers(db: Kysely<Tables>, now: () => number): GuideHandlers {
  return {
    async schedule({ params, query }) {
      const { start, end } = localDayBounds(params.id, query.tz ?? "UTC")
      const { hiddenScheduleChannel } = await siteSettings.read(db)
      const rows = await scheduleRows(db, { from: start, to: end, hidden: hiddenScheduleChannel })
      return { success: true, data: { Items: scheduleItems(rows) } }
    },
    async nowNext() {
      const at = now()
      const answers: Array<NowNext> = []
      for (const row of await nowNextRows(db, at)) {
        let answer = answers.at(-1)
        if (answer?.streamId !== row.stream_id) {
          answer = { streamId: row.stream_id, now: null, next: null }
          answers.push(answer)
        }
        if (row.start_at === null || row.stop_at === null) continue
        const programme = entry({ start_at: row.start_at, stop_at: row.stop_at, title: row.title ?? "", subtitle: row.subtitle ?? "" })
        // the first programme not yet over is on now if it has started; otherwise it is next
        if (row.rank === 1 && Date.parse(row.start_at) <= at) answers[answers.length - 1] = { ...answer, now: programme }
        else if (answer.next === null) answers[answers.length - 1] = { ...answer, next: programme }
      }
      return { success: true, data: answers }
    },
    async guideWindow({ params }) {
      const to = now()
      const from = windowStartOf(to, (await siteSettings.inEffect(db)).timeshiftHours)
      const streamId = Number(params.streamId)
      // an id past the database's integers names no stream: a stream without a guide, not a query error
      const rows = from < to && streamId <= MAX_ROW_ID ? await windowRows(db, { streamId, from, to }) : []
      return { success: true, data: { from: new Date(from).toISOString(), to: new Date(to).toISOString(), programmes: rows.map(entry) } }
    }
  }
}

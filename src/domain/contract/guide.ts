import * as Schema from "effect/Schema"
import { IsoDay } from "../Dates.ts"
import { EpgEntry, NowNext, ScheduleItem, ScheduleQuery } from "../Schedule.ts"
import { dataResponse, endpoint } from "./endpoint.ts"

export const ScheduleParams = Schema.Struct({ id: IsoDay })
export const ScheduleResponse = dataResponse(Schema.Struct({ Items: Schema.Array(ScheduleItem) }))
export const NowNextResponse = dataResponse(Schema.Array(NowNext))

/** A stream's id in a path, as the streams list gives it. */
export const GuideWindowParams = Schema.Struct({ streamId: Schema.String.check(Schema.isPattern(/^[1-9][0-9]{0,9}$/)) })

/**
 * The programmes of a stream's guide channel that overlap its time-shift window, [from, to] (ISO
 * instants), by start: what the TV player's seek bar marks. Empty for a stream without a guide.
 */
export const GuideWindow = Schema.Struct({
  from: Schema.String,
  to: Schema.String,
  programmes: Schema.Array(EpgEntry)
})
export type GuideWindow = typeof GuideWindow.Type
export const GuideWindowResponse = dataResponse(GuideWindow)

/** The programme guide: a local day of it, what airs now and next, and what a stream's time-shift window holds. */
export const guideContract = {
  schedule: endpoint({
    method: "GET",
    path: "/api/scheduler/{id}",
    params: ScheduleParams,
    query: ScheduleQuery,
    response: ScheduleResponse,
    access: "user",
    summary: "The programmes that overlap a local day, by channel in stream order"
  }),
  nowNext: endpoint({
    method: "GET",
    path: "/api/guide/now",
    response: NowNextResponse,
    access: "user",
    summary: "What airs now and next on each stream that has a guide"
  }),
  guideWindow: endpoint({
    method: "GET",
    path: "/api/guide/window/{streamId}",
    params: GuideWindowParams,
    response: GuideWindowResponse,
    access: "user",
    summary: "The programmes of a stream's guide that overlap its time-shift window (the last timeshiftHours)"
  })
} as const

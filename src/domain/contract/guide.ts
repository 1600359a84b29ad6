import * as Schema from "effect/Schema"
import { IsoDay } from "../Dates.ts"
import { NowNext, ScheduleItem, ScheduleQuery } from "../Schedule.ts"
import { dataResponse, endpoint } from "./endpoint.ts"

export const ScheduleParams = Schema.Struct({ id: IsoDay })
export const ScheduleResponse = dataResponse(Schema.Struct({ Items: Schema.Array(ScheduleItem) }))
export const NowNextResponse = dataResponse(Schema.Array(NowNext))

/** The programme guide: a local day of it, and what airs now and next. */
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
  })
} as const

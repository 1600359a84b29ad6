import * as Schema from "effect/Schema"
import { ResultCodeSchema } from "./ResultCode.ts"

/** The latest announcement; without one the server answers NOT_FOUND and no token. */
export const Announcement = Schema.Struct({
  resultCode: ResultCodeSchema,
  token: Schema.optionalKey(Schema.String),
  title: Schema.optionalKey(Schema.String),
  text: Schema.optionalKey(Schema.String)
})
export type Announcement = typeof Announcement.Type

/** Shown once per new token: only when it differs from the last one seen in this browser. */
export const shouldShowAnnouncement = (announcement: Announcement, lastSeenToken: string | null): boolean =>
  announcement.resultCode === 1 && announcement.token !== undefined && announcement.token !== "" && announcement.token !== lastSeenToken

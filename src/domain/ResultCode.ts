import * as Schema from "effect/Schema"

/** Result codes of the API (SPEC §8), by name. */
export const ResultCode = {
  SUCCESS: 1,
  EMAIL_TOKEN_NOT_FOUND: 2,
  USER_NOT_FOUND: 3,
  EMAIL_ALREADY_VERIFIED: 4,
  FAILED_UPDATE: 5,
  INVALID_INVITE_CODE: 6,
  INVITE_NOT_FOUND: 7,
  INVITE_PENDING: 8,
  INVITE_ALREADY_COMPLETED: 9,
  INVITE_EXPIRED: 10,
  BAD_USER_DATA: 11,
  EMAIL_AND_PASSWORD_DO_NOT_MATCH: 12,
  EMAIL_NOT_VERIFIED: 13,
  EMAIL_ALREADY_REGISTERED: 14,
  USER_NOT_ACTIVE: 15,
  USER_ALREADY_ACTIVE: 16,
  FAILED_TO_SEND_EMAIL: 17,
  EMAIL_TOKEN_ALREADY_COMPLETED: 18,
  INVALID_INPUT: 19,
  INVALID_TOKEN: 20,
  EXPIRED: 21,
  PENDING: 22,
  COMPLETED: 23,
  NOT_FOUND: 24,
  EMAIL_TOKEN_EXPIRED: 25
} as const

export type ResultCodeName = keyof typeof ResultCode
export type ResultCode = (typeof ResultCode)[ResultCodeName]

export const ResultCodeSchema = Schema.Number.check(Schema.isInt())

const names = new Map<number, ResultCodeName>(
  (Object.entries(ResultCode) as Array<[ResultCodeName, ResultCode]>).map(([name, code]) => [code, name])
)

export const resultCodeName = (code: number): ResultCodeName | undefined => names.get(code)

/** Ticket and support-reply results (SPEC §4). */
export const TicketResult = { SUCCESS: 1, FAIL: 2 } as const

/** Subscription results (SPEC §4). */
export const SubscriptionResult = {
  SUCCESS: 1,
  FAIL: 2,
  SUBSCRIPTION_DOES_NOT_EXIST: 3,
  INVALID_PLAN_ID: 4
} as const

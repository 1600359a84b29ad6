import type { ApiFailure } from "../../domain/contract/endpoint.ts"
import { ResultCode } from "../../domain/ResultCode.ts"

/**
 * A failure with a status the client is meant to see. Anything else thrown is a server bug and
 * is answered with a bare 500, so internals never reach the wire.
 */
export class HttpFailure extends Error {
  readonly statusCode: number
  readonly detail: string
  readonly resultCode: number | undefined
  readonly headers: Readonly<Record<string, string>>

  constructor(statusCode: number, detail: string, options: { resultCode?: number; headers?: Record<string, string> } = {}) {
    super(detail)
    this.name = "HttpFailure"
    this.statusCode = statusCode
    this.detail = detail
    this.resultCode = options.resultCode
    this.headers = options.headers ?? {}
  }

  get body(): ApiFailure {
    return failureBody(this.statusCode, this.detail, this.resultCode)
  }
}

export const failureBody = (status: number, detail: string, resultCode?: number): ApiFailure =>
  resultCode === undefined ? { success: false, status, detail } : { success: false, status, resultCode, detail }

export const invalidInput = (detail: string): HttpFailure => new HttpFailure(400, detail, { resultCode: ResultCode.INVALID_INPUT })

export const forbidden = (detail: string): HttpFailure => new HttpFailure(403, detail)

export const tooManyRequests = (detail: string, retryAfterSeconds: number): HttpFailure =>
  new HttpFailure(429, detail, { headers: { "retry-after": String(retryAfterSeconds) } })

/** "42 seconds" for short waits, "17 minutes" for long ones, "5 hours" for a day's: for the detail of a 429. */
export const waitText = (seconds: number): string => {
  if (seconds < 120) return `${seconds} seconds`
  const minutes = Math.ceil(seconds / 60)
  return minutes < 180 ? `${minutes} minutes` : `${Math.ceil(minutes / 60)} hours`
}

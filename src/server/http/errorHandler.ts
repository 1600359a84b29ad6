import type { FastifyError, FastifyInstance, FastifyReply } from "fastify"
import { ResultCode } from "../../domain/ResultCode.ts"
import { MALFORMED_JSON } from "./bodyParsers.ts"
import { failureBody, HttpFailure } from "./HttpFailure.ts"

// Fastify's own 4xx errors, reworded for people; their stock messages mention content types
// and internals.
const FRAMEWORK_ERRORS: Record<string, { status: number; detail: string }> = {
  FST_ERR_CTP_BODY_TOO_LARGE: { status: 413, detail: "Request body is too large" },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { status: 415, detail: "Unsupported content type: send JSON (Content-Type: application/json)" },
  FST_ERR_CTP_INVALID_JSON_BODY: { status: 400, detail: MALFORMED_JSON },
  FST_ERR_CTP_EMPTY_JSON_BODY: { status: 400, detail: MALFORMED_JSON },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { status: 400, detail: "Request body size does not match Content-Length" },
  FST_ERR_BAD_URL: { status: 400, detail: "Malformed URL" },
  FST_ERR_MAX_PARAM_LENGTH: { status: 414, detail: "Request URL is too long" }
}

/** Every error becomes the contract's JSON failure body: never HTML, never a stack trace. */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | HttpFailure, request, reply) => {
    if (error instanceof HttpFailure) {
      return reply.code(error.statusCode).headers(error.headers).send(error.body)
    }
    const known = error.code === undefined ? undefined : FRAMEWORK_ERRORS[error.code]
    const status = known?.status ?? error.statusCode ?? 500
    if (status >= 400 && status < 500) {
      const detail = known?.detail ?? error.message
      return reply.code(status).send(failureBody(status, detail, status === 400 ? ResultCode.INVALID_INPUT : undefined))
    }
    request.log.error({ err: error }, "request failed")
    return reply.code(500).send(failureBody(500, "Internal server error"))
  })
}

/**
 * For Fastify's `frameworkErrors` option: URLs the router cannot read (bad percent-encoding, a
 * path segment over the length limit) fail before any hook or error handler runs, and would
 * otherwise be answered in Fastify's own format. `headers` stands in for the hooks that never ran.
 */
export function frameworkErrorReply(headers: Readonly<Record<string, string>>) {
  return (error: FastifyError, reply: FastifyReply): void => {
    const known = error.code === undefined ? undefined : FRAMEWORK_ERRORS[error.code]
    const status = known?.status ?? 500
    const detail = known?.detail ?? "Internal server error"
    void reply
      .code(status)
      .headers({ ...headers, "cache-control": "no-store" })
      .send(failureBody(status, detail, status === 400 ? ResultCode.INVALID_INPUT : undefined))
  }
}

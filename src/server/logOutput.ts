import type { FastifyServerOptions } from "fastify"
import pretty from "pino-pretty"

/** `json`: one JSON object per line, for machines; `pretty`: one readable line per entry, for people. */
export type LogFormat = "json" | "pretty"

const ERROR_KEYS = ["err", "error"]

/** An error as pino serialised it, in one line: type, message, code and where it was thrown. */
export function errorInOneLine(value: unknown): string {
  if (typeof value !== "object" || value === null) return String(value)
  const { type, message, code, stack } = value as { type?: unknown; message?: unknown; code?: unknown; stack?: unknown }
  const thrownAt = typeof stack === "string" ? stack.split("\n").find((line) => /^\s+at /.test(line)) : undefined
  return [
    `${typeof type === "string" ? type : "Error"}: ${String(message ?? "")}`,
    typeof code === "string" ? `(${code})` : undefined,
    thrownAt?.trim()
  ]
    .filter((part) => part !== undefined)
    .join(" ")
}

/** The message, then the error it carries, if any; the entry's other fields follow as JSON. */
const messageWithError = (log: Record<string, unknown>, messageKey: string): string => {
  const message = typeof log[messageKey] === "string" ? (log[messageKey] as string) : ""
  const errors = ERROR_KEYS.filter((key) => log[key] !== undefined).map((key) => errorInOneLine(log[key]))
  return [message, ...errors].filter((part) => part !== "").join(" · ")
}

/**
 * The server's logger (Fastify's pino). LOG_FORMAT chooses the form; unset, a terminal gets the
 * readable one and anything else (a pipe, a file, a service manager's journal) JSON. The readable
 * form keeps an error to its first stack line: LOG_FORMAT=json has all of it.
 */
export function serverLogger(level: string, format: LogFormat | undefined, stdout: { readonly isTTY?: boolean } = process.stdout) {
  const chosen = format ?? (stdout.isTTY === true ? "pretty" : "json")
  if (chosen === "json") return { level } satisfies FastifyServerOptions["logger"]
  return {
    level,
    // Formatted in this thread and written synchronously, so the last lines before an exit are
    // never lost (pino's transports run in a worker thread of their own). Colours only on a
    // terminal that takes them (NO_COLOR, FORCE_COLOR).
    stream: pretty({
      sync: true,
      translateTime: "SYS:HH:MM:ss.l",
      ignore: ["pid", "hostname", ...ERROR_KEYS].join(","),
      errorLikeObjectKeys: [],
      messageFormat: messageWithError,
      singleLine: true
    })
  } satisfies FastifyServerOptions["logger"]
}

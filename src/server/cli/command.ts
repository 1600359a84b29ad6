import type { ParseArgsOptionsConfig } from "node:util"
import type { Kysely } from "kysely"
import { emailRule, normaliseEmail } from "../../domain/Validation.ts"
import type { Config } from "../config.ts"
import type { Tables } from "../db/schema.ts"

export type Args = Readonly<Record<string, string | boolean | ReadonlyArray<string> | undefined>>

export interface CommandContext {
  readonly db: Kysely<Tables>
  readonly config: Config
  readonly out: (text: string) => void
  /** Notes beside the result (standard error), so `out` stays just the result for scripts. */
  readonly err: (text: string) => void
  readonly now: () => number
  /** Who runs the command, as the audit log names them: the OS user (the one sudo was run by). */
  readonly operator: string
}

export interface Command {
  readonly name: string
  /** Arguments after the name, e.g. `--email E --password P [--staff]`. */
  readonly usage: string
  readonly summary: string
  readonly options: ParseArgsOptionsConfig
  /** "none": the command works on the database's files itself (restoring one); the CLI neither opens nor migrates it. */
  readonly database?: "none"
  /** Resolves to the exit code; throws UsageError for bad arguments and CommandFailure otherwise. */
  run(args: Args, context: CommandContext): Promise<number>
}

/** Bad arguments: exit 2 with the command's usage. */
export class UsageError extends Error {
  override readonly name = "UsageError"
}

/** The command was understood but could not be done (no such stream, email taken): exit 1. */
export class CommandFailure extends Error {
  override readonly name = "CommandFailure"
}

/**
 * A count with its noun, as commands print them: `plural(1, "stream")` is "1 stream",
 * `plural(3, "entry", "entries")` is "3 entries"; large counts get thousands separators.
 */
export const plural = (count: number, one: string, many = `${one}s`): string =>
  `${count.toLocaleString("en-US")} ${count === 1 ? one : many}`

export function requireText(args: Args, name: string): string {
  const value = args[name]
  if (typeof value !== "string" || value.trim() === "") throw new UsageError(`--${name} is required`)
  return value
}

/** `--email`, checked as the sign-up form checks it and lower-cased as accounts store it. */
export function requireEmail(args: Args): string {
  const text = requireText(args, "email")
  const message = emailRule(text)
  if (message !== undefined) throw new UsageError(`--email: ${message}`)
  return normaliseEmail(text)
}

export function optionalText(args: Args, name: string): string | undefined {
  const value = args[name]
  return typeof value === "string" ? value : undefined
}

export function requireId(args: Args, name = "id"): number {
  const text = requireText(args, name)
  const id = Number(text)
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(id) || id < 1) {
    throw new UsageError(`--${name} must be a positive whole number (got "${text}")`)
  }
  return id
}

/** A stream or image location: an http(s) URL, or a path on this server. */
export function requireLocation(args: Args, name: string): string {
  const value = requireText(args, name).trim()
  if (isLocation(value)) return value
  throw new UsageError(`--${name} must be an http(s) URL or a path starting with / (got "${value}")`)
}

export function isLocation(value: string): boolean {
  if (value.startsWith("/") && !value.startsWith("//")) return true
  try {
    const url = new URL(value)
    return url.protocol === "http:" || url.protocol === "https:"
  } catch {
    return false
  }
}

/** `a, b,,c` → `a,b,c` */
export const normaliseTags = (tags: string | undefined): string =>
  (tags ?? "")
    .split(",")
    .map((tag) => tag.trim())
    .filter((tag) => tag !== "")
    .join(",")

/** Fixed-width columns for terminal listings. */
export function table(headers: ReadonlyArray<string>, rows: ReadonlyArray<ReadonlyArray<string>>): string {
  const widths = headers.map((header, i) => Math.max(header.length, ...rows.map((row) => (row[i] ?? "").length)))
  const line = (cells: ReadonlyArray<string>) =>
    cells
      .map((cell, i) => cell.padEnd(widths[i] ?? 0))
      .join("  ")
      .trimEnd()
  return [line(headers), line(widths.map((w) => "-".repeat(w))), ...rows.map(line)].join("\n")
}

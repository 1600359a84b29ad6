import { existsSync } from "node:fs"
import { userInfo } from "node:os"
import path from "node:path"
import { parseArgs } from "node:util"
import { accountCommands } from "../account/accountFeature.ts"
import { auditCommands } from "../audit/auditFeature.ts"
import { type Config, ConfigError, loadConfig } from "../config.ts"
import { type Db, openDatabase } from "../db/database.ts"
import { DatabaseNewerThanCode, migrateToLatest } from "../db/migrations.ts"
import { withStartupLock } from "../db/startupLock.ts"
import { guideCommands } from "../guide/guideFeature.ts"
import { invitesCommands } from "../invites/invitesFeature.ts"
import { mailCommands } from "../mail/mailFeature.ts"
import { operationsCommands } from "../operations/operationsFeature.ts"
import { paymentsCommands } from "../payments/paymentsFeature.ts"
import { shellCommands } from "../shell/shellFeature.ts"
import { streamsCommands } from "../streams/streamsFeature.ts"
import { telemetryCommands } from "../telemetry/telemetryFeature.ts"
import { type Args, type Command, type CommandContext, CommandFailure, UsageError } from "./command.ts"

/** Every feature's operator commands, in the order `--help` lists them. */
export const COMMANDS: ReadonlyArray<Command> = [
  ...accountCommands,
  ...telemetryCommands,
  ...invitesCommands,
  ...shellCommands,
  ...streamsCommands,
  ...guideCommands,
  ...paymentsCommands,
  ...mailCommands,
  ...operationsCommands,
  ...auditCommands
]

export interface AdminIo {
  readonly config: Config
  readonly out: (text: string) => void
  /** Defaults to `out`. */
  readonly err?: (text: string) => void
  readonly now?: () => number
  /** An open, migrated database to use instead of opening the configured one (kept open). */
  readonly db?: Db
  /** Who runs the commands, for the audit log; the OS user when not given. */
  readonly operator?: string
}

/** The OS user running the CLI; under sudo, the one who ran sudo. */
export function osUser(env: NodeJS.ProcessEnv = process.env): string {
  const sudo = env.SUDO_USER?.trim()
  if (sudo !== undefined && sudo !== "") return sudo
  try {
    return userInfo().username
  } catch {
    // a uid without a passwd entry (some containers)
    return env.USER ?? env.LOGNAME ?? "unknown"
  }
}

const usageLine = (command: Command) => `npm run admin -- ${command.name}${command.usage === "" ? "" : ` ${command.usage}`}`

export function helpText(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length))
  return [
    "StreamHub operator commands, using the server's configuration (DATA_DIR, DATABASE_URL).",
    "",
    "Usage: npm run admin -- <command> [options]",
    "",
    "Commands:",
    ...COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}\n  ${" ".repeat(width)}  ${c.name} ${c.usage}`.trimEnd()),
    "",
    "Run `npm run admin -- <command> --help` for one command."
  ].join("\n")
}

/** Runs one operator command; resolves to the process exit code (0 ok, 1 failed, 2 bad arguments). */
export async function runAdmin(argv: ReadonlyArray<string>, io: AdminIo): Promise<number> {
  const err = io.err ?? io.out
  const [name, ...rest] = argv
  if (name === "--help" || name === "-h" || name === "help") {
    io.out(helpText())
    return 0
  }
  const command = COMMANDS.find((c) => c.name === name)
  if (command === undefined) {
    err(name === undefined ? "No command given." : `Unknown command "${name}".`)
    err(helpText())
    return 1
  }
  if (rest.includes("--help") || rest.includes("-h")) {
    io.out(`${usageLine(command)}\n\n${command.summary}`)
    return 0
  }

  let args: Args
  try {
    args = parseArgs({ args: [...rest], options: command.options, strict: true, allowPositionals: false }).values as Args
  } catch (error) {
    err(`${command.name}: ${error instanceof Error ? error.message : String(error)}`)
    err(`Usage: ${usageLine(command)}`)
    return 2
  }

  if (command.database === "none") return runWithoutDatabase(command, args, io, err)

  // a mistyped DATA_DIR would otherwise get a fresh database, and the command's "done" would be about it
  const sqliteFile = io.db === undefined && !io.config.databaseUrl ? path.join(io.config.dataDir, "app.db") : undefined
  if (sqliteFile !== undefined && !existsSync(sqliteFile))
    err(`No database at ${path.resolve(sqliteFile)} yet: creating one. Set DATA_DIR if the server's is elsewhere.`)
  const db = io.db ?? (await openDatabase({ dataDir: io.config.dataDir, databaseUrl: io.config.databaseUrl }))
  try {
    // The CLI may be the first thing run against a fresh DATA_DIR or database, perhaps while a
    // server starts on it: it waits for that start's migrating and seeding, as another server would.
    if (io.db === undefined) {
      await withStartupLock(db, () => migrateToLatest(db), {
        onWait: () => err("Waiting for a server starting on this database to finish migrating")
      })
    }
    return await command.run(args, {
      db: db.kysely,
      config: io.config,
      out: io.out,
      err,
      now: io.now ?? Date.now,
      operator: io.operator ?? osUser()
    })
  } catch (error) {
    return exitCodeOf(command, error, err)
  } finally {
    if (io.db === undefined) await db.close()
  }
}

/**
 * Standard output and error for a person or a script. A line that starts with `\r` is a status
 * line (an import's progress): on a terminal each one overwrites the last, elsewhere it is an
 * ordinary line, so logs keep every one.
 */
export function consoleIo(
  stdout: NodeJS.WriteStream = process.stdout,
  stderr: NodeJS.WriteStream = process.stderr
): Pick<AdminIo, "out" | "err"> {
  let statusShown = false
  const endStatus = () => {
    if (statusShown) stderr.write("\n")
    statusShown = false
  }
  return {
    out: (text) => {
      endStatus()
      stdout.write(`${text}\n`)
    },
    err: (text) => {
      if (!text.startsWith("\r")) {
        endStatus()
        stderr.write(`${text}\n`)
      } else if (stderr.isTTY) {
        stderr.write(`\r\x1b[2K${text.slice(1)}`)
        statusShown = true
      } else {
        stderr.write(`${text.slice(1)}\n`)
      }
    }
  }
}

if (import.meta.main) {
  try {
    const config = loadConfig(process.env)
    process.exitCode = await runAdmin(process.argv.slice(2), { config, ...consoleIo() })
  } catch (error) {
    // a locked or unreachable database, a DATA_DIR that is a file: one line says it, the stack
    // only on request
    console.error(error instanceof ConfigError ? error.message : `admin: ${error instanceof Error ? error.message : String(error)}`)
    if (!(error instanceof ConfigError) && process.env.DEBUG !== undefined) console.error(error)
    process.exitCode = 1
  }
}

/** A command that works on the database's files itself: nothing is opened for it. */
async function runWithoutDatabase(command: Command, args: Args, io: AdminIo, err: (text: string) => void): Promise<number> {
  const closed = new Proxy({} as CommandContext["db"], {
    get() {
      throw new Error(`${command.name} does not open the database`)
    }
  })
  try {
    return await command.run(args, {
      db: closed,
      config: io.config,
      out: io.out,
      err,
      now: io.now ?? Date.now,
      operator: io.operator ?? osUser()
    })
  } catch (error) {
    return exitCodeOf(command, error, err)
  }
}

/** A command's failure as the operator sees it: bad arguments exit 2 with the usage, a refusal 1; anything else is a bug and throws. */
function exitCodeOf(command: Command, error: unknown, err: (text: string) => void): number {
  if (error instanceof UsageError) {
    err(`${command.name}: ${error.message}`)
    err(`Usage: ${usageLine(command)}`)
    return 2
  }
  if (error instanceof CommandFailure || error instanceof DatabaseNewerThanCode) {
    err(`${command.name}: ${error.message}`)
    return 1
  }
  throw error
}

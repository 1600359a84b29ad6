import path from "node:path"
import { type Command, CommandFailure, requireText, UsageError } from "../cli/command.ts"
import { copySqliteToPostgres } from "./dbCopy.ts"
import { CopyRefused } from "./dbCopyPlan.ts"

// as DATABASE_URL takes it (db/postgres.ts): lower case, so search_path and `create schema` agree
const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/

/** `--to`, checked before anything is opened: a PostgreSQL URL, with a usable `?schema=`. */
function requirePostgresUrl(text: string): URL {
  let url: URL
  try {
    url = new URL(text)
  } catch {
    throw new UsageError(`--to must be a postgres:// URL (got "${text}")`)
  }
  if (url.protocol !== "postgres:" && url.protocol !== "postgresql:")
    throw new UsageError(`--to must be a postgres:// URL (got one starting ${url.protocol}//)`)
  const schema = url.searchParams.get("schema")
  if (schema !== null && !SCHEMA_NAME.test(schema))
    throw new UsageError(`--to: invalid schema name "${schema}" (lower-case letters, digits and _)`)
  return url
}

/** The URL as it may be printed: without its password. */
const shown = (url: URL): string => {
  const copy = new URL(url)
  if (copy.password !== "") copy.password = "***"
  return copy.toString()
}

export const dbCopy: Command = {
  name: "db:copy",
  usage: "--to postgres://USER@HOST/DB[?schema=NAME] [--force]",
  summary:
    "Move to PostgreSQL: copy every row of the SQLite database (DATA_DIR) into an empty PostgreSQL database, migrated first, in one " +
    "transaction; --force empties its tables first. Stop the server first; the SQLite file is only read",
  options: { to: { type: "string" }, force: { type: "boolean" } },
  // it opens both databases itself: the SQLite one only through a backup, never migrated in place
  database: "none",
  async run(args, { config, out, err }) {
    const to = requirePostgresUrl(requireText(args, "to"))
    if (config.databaseUrl !== undefined)
      throw new CommandFailure(
        "DATABASE_URL is set: the configured database is PostgreSQL already, so there is nothing to move. " +
          "db:copy copies the SQLite database in DATA_DIR; run it without DATABASE_URL"
      )
    const source = path.resolve(config.dataDir, "app.db")
    const started = performance.now()
    let report: Awaited<ReturnType<typeof copySqliteToPostgres>>
    try {
      report = await copySqliteToPostgres({
        dataDir: config.dataDir,
        scratchDir: config.backup.dir,
        targetUrl: to.toString(),
        force: args.force === true,
        progress: err
      })
    } catch (error) {
      if (error instanceof CopyRefused) throw new CommandFailure(error.message)
      throw error
    }
    const rows = report.tables.reduce((sum, table) => sum + table.rows, 0)
    const seconds = ((performance.now() - started) / 1000).toFixed(1)
    out(`Copied ${rows} rows in ${report.tables.length} tables from ${source} to ${shown(to)} in ${seconds} s; the row counts match.`)
    out(
      [...report.tables]
        .sort((a, b) => a.name.localeCompare(b.name))
        .map((table) => `  ${table.name} ${table.rows}`)
        .join("\n")
    )
    if (report.skipped.length > 0) out(`Not copied (they refill by themselves): ${report.skipped.join(", ")}`)
    out(
      `Next: set DATABASE_URL=${shown(to)} for every instance and start the server. ` +
        `${source} was left as it was; keep it until the server runs well on PostgreSQL.`
    )
    return 0
  }
}

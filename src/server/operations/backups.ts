/**
 * Backups of the whole database, taken while the server runs: SQLite's online backup (a
 * consistent copy including what is still in the WAL, which copying the file would lose) or
 * PostgreSQL's `pg_dump`; restored into a stopped or new data directory or database; and checked
 * by restoring into a scratch copy.
 */
import { spawn } from "node:child_process"
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync } from "node:fs"
import { mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import path from "node:path"
import { backup, DatabaseSync } from "node:sqlite"

/** A backup that could not be made, restored or checked, in one line for the operator. */
export class BackupRefused extends Error {
  override readonly name = "BackupRefused"
}

export interface DatabaseLocation {
  readonly dataDir: string
  readonly databaseUrl: string | undefined
}

const sqliteFileOf = (location: DatabaseLocation): string => path.join(location.dataDir, "app.db")
const SQLITE_HEADER = "SQLite format 3\0"

/** `postgres://…?schema=s` as the PostgreSQL tools take it: the address, and the schema apart. */
const pgTarget = (databaseUrl: string): { url: string; schema: string | undefined } => {
  const url = new URL(databaseUrl)
  const schema = url.searchParams.get("schema") ?? undefined
  url.searchParams.delete("schema")
  return { url: url.toString(), schema }
}

const run = (command: string, args: ReadonlyArray<string>): Promise<string> =>
  new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ["ignore", "pipe", "pipe"] })
    let output = ""
    let errors = ""
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()))
    child.stderr.on("data", (chunk: Buffer) => (errors = `${errors}${chunk.toString()}`.slice(-4000)))
    child.once("error", (error: NodeJS.ErrnoException) =>
      reject(
        new BackupRefused(
          error.code === "ENOENT" ? `${command} is not installed (apt-get install postgresql-client)` : `${command}: ${error.message}`
        )
      )
    )
    child.once("close", (code) =>
      code === 0 ? resolve(output) : reject(new BackupRefused(`${command} failed: ${errors.trim().split("\n").at(-1) ?? `exit ${code}`}`))
    )
  })

/** Where a backup goes when no file is named: BACKUP_DIR (DATA_DIR/backups), named by its time. */
export const defaultBackupFile = (backupDir: string, at: number, dialect: "sqlite" | "postgres"): string =>
  path.join(
    backupDir,
    `streamhub-${new Date(at).toISOString().replace(/[-:]/g, "").replace(/\..*$/, "")}${dialect === "sqlite" ? ".db" : ".dump"}`
  )

/** Writes a consistent copy of the live database to `file` (through a temporary name, so a half-made backup is never there). */
export async function createBackup(location: DatabaseLocation, file: string): Promise<{ bytes: number }> {
  mkdirSync(path.dirname(file), { recursive: true })
  if (existsSync(file)) throw new BackupRefused(`${file} already exists: name another file`)
  const partial = `${file}.partial`
  rmSync(partial, { force: true })
  try {
    if (location.databaseUrl === undefined) {
      const source = sqliteFileOf(location)
      if (!existsSync(source)) throw new BackupRefused(`no database at ${source}: check DATA_DIR`)
      const database = new DatabaseSync(source)
      try {
        database.exec("PRAGMA busy_timeout=5000")
        await backup(database, partial)
      } finally {
        database.close()
      }
    } else {
      const { url, schema } = pgTarget(location.databaseUrl)
      await run("pg_dump", [
        "--format=custom",
        "--no-owner",
        "--no-privileges",
        ...(schema ? ["--schema", schema] : []),
        "--file",
        partial,
        url
      ])
    }
    renameSync(partial, file)
  } finally {
    rmSync(partial, { force: true })
  }
  return { bytes: statSync(file).size }
}

/** What a backup holds, read from a scratch copy: its integrity, its schema version and its rows per table. */
export interface BackupContents {
  readonly integrity: string
  readonly schema: string | undefined
  readonly tables: ReadonlyArray<{ readonly name: string; readonly rows: number }>
}

const readSqlite = (file: string): BackupContents => {
  const database = new DatabaseSync(file, { readOnly: true })
  try {
    const integrity = (database.prepare("PRAGMA integrity_check").all() as Array<{ integrity_check: string }>)
      .map((row) => row.integrity_check)
      .join("; ")
    const names = (
      database.prepare("select name from sqlite_master where type = 'table' and name not like 'sqlite_%' order by name").all() as Array<{
        name: string
      }>
    ).map((row) => row.name)
    const schema = names.includes("kysely_migration")
      ? ((database.prepare("select max(name) as name from kysely_migration").get() as { name: string | null }).name ?? undefined)
      : undefined
    const tables = names.map((name) => ({
      name,
      rows: Number((database.prepare(`select count(*) as count from "${name.replace(/"/g, '""')}"`).get() as { count: number }).count)
    }))
    return { integrity, schema, tables }
  } finally {
    database.close()
  }
}

const isSqliteBackup = (file: string): boolean => {
  try {
    return readFileSync(file).subarray(0, 16).toString("latin1") === SQLITE_HEADER
  } catch {
    return false
  }
}

/** Restores `file` into a scratch copy and reads it back: refused when it is not a backup or does not restore whole. */
export async function verifyBackup(file: string): Promise<BackupContents & { readonly kind: "sqlite" | "postgres" }> {
  if (!existsSync(file)) throw new BackupRefused(`no file at ${file}`)
  if (isSqliteBackup(file)) {
    const scratch = await mkdtemp(path.join(tmpdir(), "streamhub-verify-"))
    try {
      return await verifySqliteCopy(file, scratch)
    } catch (error) {
      if (error instanceof BackupRefused) throw error
      throw new BackupRefused(`${file} is damaged: ${error instanceof Error ? error.message : String(error)}`)
    } finally {
      await rm(scratch, { recursive: true, force: true })
    }
  }
  return verifyArchive(file)
}

async function verifySqliteCopy(file: string, scratch: string): Promise<BackupContents & { readonly kind: "sqlite" }> {
  const copy = path.join(scratch, "app.db")
  const source = new DatabaseSync(file, { readOnly: true })
  try {
    await backup(source, copy)
  } finally {
    source.close()
  }
  const contents = readSqlite(copy)
  if (contents.integrity !== "ok") throw new BackupRefused(`${file} is damaged: ${contents.integrity}`)
  return { kind: "sqlite", ...contents }
}

/** A PostgreSQL archive: its table of contents must read whole. */
async function verifyArchive(file: string): Promise<BackupContents & { readonly kind: "postgres" }> {
  const listing = await run("pg_restore", ["--list", file]).catch((error: unknown) => {
    throw new BackupRefused(`${file} is neither an SQLite backup nor a PostgreSQL archive that reads whole (${(error as Error).message})`)
  })
  const tables = listing
    .split("\n")
    .map((line) => /TABLE DATA \S+ (\S+) /.exec(line)?.[1])
    .filter((name): name is string => name !== undefined)
    .map((name) => ({ name, rows: Number.NaN }))
  return { kind: "postgres", integrity: "ok", schema: undefined, tables }
}

/**
 * Puts a backup in place of the configured database. Refused when that database has data, unless
 * `force` (the server must be stopped then: its open database would be replaced under it).
 */
export async function restoreBackup(location: DatabaseLocation, file: string, force: boolean): Promise<void> {
  if (!existsSync(file)) throw new BackupRefused(`no file at ${file}`)
  if (location.databaseUrl === undefined) {
    if (!isSqliteBackup(file)) throw new BackupRefused(`${file} is not an SQLite backup (this server's database is SQLite)`)
    await verifyBackup(file)
    const target = sqliteFileOf(location)
    if (existsSync(target) && statSync(target).size > 0 && !force)
      throw new BackupRefused(`${target} already holds a database: stop the server and add --force to replace it`)
    mkdirSync(location.dataDir, { recursive: true })
    const partial = `${target}.restoring`
    rmSync(partial, { force: true })
    const source = new DatabaseSync(file, { readOnly: true })
    try {
      await backup(source, partial)
    } finally {
      source.close()
    }
    for (const stale of [`${target}-wal`, `${target}-shm`]) rmSync(stale, { force: true })
    renameSync(partial, target)
    return
  }
  if (isSqliteBackup(file)) throw new BackupRefused(`${file} is an SQLite backup (this server's database is PostgreSQL)`)
  const { url, schema } = pgTarget(location.databaseUrl)
  const pg = await import("pg")
  const client = new pg.default.Client({ connectionString: url })
  await client.connect()
  try {
    const found = await client.query<{ count: string }>(
      "select count(*) as count from information_schema.tables where table_schema = coalesce($1, current_schema())",
      [schema ?? null]
    )
    if (Number(found.rows[0]?.count ?? 0) > 0 && !force)
      throw new BackupRefused(
        `the database${schema ? ` (schema ${schema})` : ""} already has tables: stop the servers and add --force to replace it`
      )
  } finally {
    await client.end()
  }
  await run("pg_restore", ["--clean", "--if-exists", "--no-owner", "--no-privileges", "--single-transaction", "--dbname", url, file])
}

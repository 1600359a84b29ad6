import path from "node:path"
import { type Command, CommandFailure, optionalText, requireText } from "../cli/command.ts"
import { BackupRefused, createBackup, defaultBackupFile, restoreBackup, verifyBackup } from "./backups.ts"

const refusedAsFailure = async <T>(work: () => Promise<T>): Promise<T> => {
  try {
    return await work()
  } catch (error) {
    if (error instanceof BackupRefused) throw new CommandFailure(error.message)
    throw error
  }
}

const megabytes = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MB`

export const backupCreate: Command = {
  name: "backup:create",
  usage: "[--file F]",
  summary:
    "Back up the whole database while the server runs (SQLite's online backup, with what is still in its WAL; pg_dump for PostgreSQL), " +
    "to F or to BACKUP_DIR (DATA_DIR/backups) named by the time",
  options: { file: { type: "string" } },
  async run(args, { config, out, now }) {
    const dialect = config.databaseUrl === undefined ? "sqlite" : "postgres"
    const file = path.resolve(optionalText(args, "file") ?? defaultBackupFile(config.backup.dir, now(), dialect))
    const started = performance.now()
    const { bytes } = await refusedAsFailure(() => createBackup(config, file))
    out(`Backed up the database to ${file} (${megabytes(bytes)}) in ${((performance.now() - started) / 1000).toFixed(1)} s`)
    return 0
  }
}

export const backupVerify: Command = {
  name: "backup:verify",
  usage: "--file F",
  summary: "Restore a backup into a scratch copy and check it: integrity, schema version and the rows of every table",
  options: { file: { type: "string" } },
  database: "none",
  async run(args, { out }) {
    const file = path.resolve(requireText(args, "file"))
    const found = await refusedAsFailure(() => verifyBackup(file))
    if (found.kind === "sqlite") {
      out(`${file}: restores whole, integrity ok, schema at ${found.schema ?? "(no migrations)"}`)
      out(found.tables.map((table) => `  ${table.name} ${table.rows}`).join("\n"))
    } else {
      out(`${file}: a PostgreSQL archive that reads whole, data for ${found.tables.length} tables`)
      out("  (to check its rows, restore it into a scratch database: DATABASE_URL=… backup:restore --file F)")
    }
    return 0
  }
}

export const backupRestore: Command = {
  name: "backup:restore",
  usage: "--file F [--force]",
  summary:
    "Put a backup in place of the configured database (DATA_DIR or DATABASE_URL): refused where a database already is, " +
    "unless --force (stop the server first)",
  options: { file: { type: "string" }, force: { type: "boolean" } },
  database: "none",
  async run(args, { config, out }) {
    const file = path.resolve(requireText(args, "file"))
    await refusedAsFailure(() => restoreBackup(config, file, args.force === true))
    out(
      `Restored ${file} into ${config.databaseUrl === undefined ? path.join(config.dataDir, "app.db") : "the configured PostgreSQL database"}`
    )
    return 0
  }
}

export const backupCommands: ReadonlyArray<Command> = [backupCreate, backupVerify, backupRestore]

import { readdirSync, rmSync, statSync } from "node:fs"
import path from "node:path"
import type { Kysely } from "kysely"
import type { Tables } from "../db/schema.ts"
import { type PeriodicJob, startPeriodicJob } from "../http/periodicJob.ts"
import { createBackup, type DatabaseLocation, defaultBackupFile } from "./backups.ts"

const HOUR_MS = 60 * 60 * 1000
const DAY_MS = 24 * HOUR_MS
// the names backup:create and this job give their files
const OURS = /^streamhub-\d{8}T\d{6}\.(db|dump)$/

/** This job's backups in `dir`, newest first. */
const backupsIn = (dir: string): Array<{ file: string; at: number }> => {
  let names: Array<string>
  try {
    names = readdirSync(dir)
  } catch {
    return []
  }
  return names
    .filter((name) => OURS.test(name))
    .map((name) => ({ file: path.join(dir, name), at: statSync(path.join(dir, name)).mtimeMs }))
    .sort((a, b) => b.at - a.at)
}

/**
 * A backup a day into BACKUP_DIR, keeping the newest BACKUP_KEEP (none when 0): looked at every
 * hour, made when the newest is a day old, by one instance at a time.
 */
export function startScheduledBackups(options: {
  readonly db: Kysely<Tables>
  readonly location: DatabaseLocation
  readonly dir: string
  readonly keep: number
  readonly now: () => number
  readonly onDone: (file: string) => void
  readonly onError: (error: unknown) => void
}): PeriodicJob<string | undefined> | undefined {
  const { location, dir, keep, now } = options
  if (keep === 0) return undefined
  return startPeriodicJob(
    async () => {
      const [newest] = backupsIn(dir)
      if (newest !== undefined && now() - newest.at < DAY_MS) return undefined
      const file = defaultBackupFile(dir, now(), location.databaseUrl === undefined ? "sqlite" : "postgres")
      await createBackup(location, file)
      for (const old of backupsIn(dir).slice(keep)) rmSync(old.file, { force: true })
      return file
    },
    {
      everyMs: HOUR_MS,
      // an hour after start: a server that restarts often does not back up on every start
      firstAfterMs: HOUR_MS,
      lease: { db: options.db, name: "daily-backup", now },
      onDone: (file) => {
        if (file !== undefined) options.onDone(file)
      },
      onError: options.onError
    }
  )
}

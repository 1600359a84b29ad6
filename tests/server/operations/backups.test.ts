import { existsSync, readdirSync, utimesSync } from "node:fs"
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import path from "node:path"
import { describe, expect, it } from "vitest"
import { runAdmin } from "../../../src/server/cli/admin.ts"
import { loadConfig } from "../../../src/server/config.ts"
import { openDatabase } from "../../../src/server/db/database.ts"
import { startScheduledBackups } from "../../../src/server/operations/scheduledBackups.ts"
import { useAdmin } from "../../support/cliHarness.ts"
import { dialects } from "../../support/dbHarness.ts"

const HOUR = 60 * 60 * 1000

const streamTitles = async (admin: (...argv: string[]) => Promise<{ code: number; output: string }>) => (await admin("stream:list")).output

describe.each(dialects)("backups ($name)", (dialect) => {
  const cli = useAdmin(dialect)
  const backupDir = () => path.join(cli.database.dataDir, "backups")

  it("backs up while rows are written, losing none committed before it began, and restores them with --force", async () => {
    const { admin, database } = cli
    expect((await admin("stream:add", "--title", "Kept Before")).code).toBe(0)
    // writes go on while the backup is taken
    let writing = true
    let written = 0
    const writer = (async () => {
      while (writing && written < 200) {
        await database.db.kysely
          .insertInto("announcements")
          .values({ token: `t${written}`, title: `note ${written}`, text: "x", created_at: new Date().toISOString() })
          .execute()
        written += 1
      }
    })()
    // some are committed before the backup begins
    while (written < 20) await new Promise((resolve) => setTimeout(resolve, 5))
    const committedBefore = written
    const created = await admin("backup:create")
    writing = false
    await writer
    expect(created.code, created.output).toBe(0)
    const file = /^Backed up the database to (\S+) \([\d.]+ MB\) in [\d.]+ s$/.exec(created.output)?.[1] ?? ""
    expect(file.startsWith(backupDir())).toBe(true)
    expect(existsSync(file)).toBe(true)

    const verified = await admin("backup:verify", "--file", file)
    expect(verified.code, verified.output).toBe(0)
    if (dialect.name === "sqlite") {
      expect(verified.output).toMatch(/restores whole, integrity ok, schema at 00\d\d_/)
      const announcements = Number(/^ {2}announcements (\d+)$/m.exec(verified.output)?.[1])
      expect(announcements).toBeGreaterThanOrEqual(committedBefore)
      expect(verified.output).toMatch(/^ {2}streams \d+$/m)
    } else expect(verified.output).toMatch(/a PostgreSQL archive that reads whole, data for \d+ tables/)

    // the data moves on; the restore brings back what the backup held
    expect((await admin("stream:add", "--title", "Added After")).code).toBe(0)
    const refused = await admin("backup:restore", "--file", file)
    expect(refused.code).toBe(1)
    expect(refused.output).toMatch(/already (holds a database|has tables): stop the server(s)? and add --force to replace it/)
    expect(await streamTitles(admin)).toContain("Added After")

    // restoring replaces the database under any open connection: the test's own is closed first
    await database.db.close()
    const restored = await runAdmin(["backup:restore", "--file", file, "--force"], { config: cli.config, out: () => undefined })
    expect(restored).toBe(0)
    const reopened = await openDatabase({ dataDir: cli.config.dataDir, databaseUrl: cli.config.databaseUrl })
    try {
      const titles = (await reopened.kysely.selectFrom("streams").select("title").execute()).map((row) => row.title)
      expect(titles).toContain("Kept Before")
      expect(titles).not.toContain("Added After")
    } finally {
      await reopened.close()
    }
  })

  it("refuses a file that is not a backup, and a backup cut short, in one line", async () => {
    const { admin } = cli
    const dir = await mkdtemp(path.join(tmpdir(), "streamhub-not-backup-"))
    try {
      const junk = path.join(dir, "junk.db")
      await writeFile(junk, "not a database at all")
      const junkAnswer = await admin("backup:verify", "--file", junk)
      expect(junkAnswer.code).toBe(1)
      expect(junkAnswer.output).toMatch(/is neither an SQLite backup nor a PostgreSQL archive that reads whole/)
      expect((await admin("backup:verify", "--file", path.join(dir, "missing.db"))).output).toMatch(/no file at/)
      const made = await admin("backup:create", "--file", path.join(dir, "whole"))
      expect(made.code, made.output).toBe(0)
      const whole = await readFile(path.join(dir, "whole"))
      await writeFile(path.join(dir, "cut"), whole.subarray(0, Math.floor(whole.length / 2)))
      expect((await admin("backup:verify", "--file", path.join(dir, "cut"))).code).toBe(1)
      // a second backup never overwrites the first
      expect((await admin("backup:create", "--file", path.join(dir, "whole"))).output).toMatch(/already exists/)
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })
})

describe("restoring into a new data directory (sqlite)", () => {
  const cli = useAdmin(dialects[0]!)

  it("needs no --force where there is no database yet, and the server's CLI opens what it restored", async () => {
    const { admin } = cli
    expect((await admin("stream:add", "--title", "Moved Over")).code).toBe(0)
    const dir = await mkdtemp(path.join(tmpdir(), "streamhub-new-home-"))
    try {
      const file = path.join(dir, "moving.db")
      expect((await admin("backup:create", "--file", file)).code).toBe(0)
      const config = loadConfig({ DATA_DIR: path.join(dir, "data") })
      const lines: Array<string> = []
      expect(await runAdmin(["backup:restore", "--file", file], { config, out: (text) => lines.push(text) })).toBe(0)
      expect(lines.join("\n")).toMatch(/^Restored .*moving\.db into .*data\/app\.db$/)
      const listed: Array<string> = []
      expect(await runAdmin(["stream:list"], { config, out: (text) => listed.push(text) })).toBe(0)
      expect(listed.join("\n")).toContain("Moved Over")
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })
})

describe("the daily backup (sqlite)", () => {
  const cli = useAdmin(dialects[0]!)

  it("backs up when the newest backup is a day old, by one instance, keeping the newest BACKUP_KEEP", async () => {
    const dir = path.join(cli.database.dataDir, "daily")
    let clock = Date.now()
    const written: Array<string> = []
    const job = startScheduledBackups({
      db: cli.database.db.kysely,
      location: cli.config,
      dir,
      keep: 2,
      now: () => clock,
      onDone: (file) => written.push(file),
      onError: (error) => {
        throw error
      }
    })
    try {
      const first = await job?.runNow()
      expect(first).toMatch(/streamhub-\d{8}T\d{6}\.db$/)
      // within the day: nothing new
      clock += 23 * HOUR
      expect(await job?.runNow()).toBeUndefined()
      for (let day = 1; day <= 3; day += 1) {
        clock += 25 * HOUR
        expect(await job?.runNow()).toMatch(/\.db$/)
        // the files' times are the real clock's: the next is a day newer only by the job's clock
        const files = readdirSync(dir).sort()
        for (const [index, name] of files.entries()) {
          const at = new Date(clock - (files.length - 1 - index) * 25 * HOUR)
          utimesSync(path.join(dir, name), at, at)
        }
      }
      expect(readdirSync(dir)).toHaveLength(2)
      expect((await cli.admin("backup:verify", "--file", path.join(dir, readdirSync(dir).sort().at(-1) ?? ""))).code).toBe(0)
    } finally {
      await job?.stop()
    }
    expect(
      startScheduledBackups({
        ...{ db: cli.database.db.kysely, location: cli.config, dir, now: () => clock },
        keep: 0,
        onDone: () => undefined,
        onError: () => undefined
      })
    ).toBeUndefined()
  })
})

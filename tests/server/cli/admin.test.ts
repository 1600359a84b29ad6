import { execFile } from "node:child_process"
import { writeFile } from "node:fs/promises"
import path from "node:path"
import { fileURLToPath } from "node:url"
import { promisify } from "node:util"
import { afterEach, beforeEach, describe, expect, it } from "vitest"
import { verifyPassword } from "../../../src/server/account/passwords.ts"
import { runAdmin } from "../../../src/server/cli/admin.ts"
import { parseM3u } from "../../../src/server/streams/parseM3u.ts"
import { type Config, loadConfig } from "../../../src/server/config.ts"
import { latestAnnouncement } from "../../../src/server/shell/announcementsRepo.ts"
import { getMaintenance } from "../../../src/server/shell/maintenanceRepo.ts"
import { getSettings } from "../../../src/server/shell/settingsRepo.ts"
import { listStreams } from "../../../src/server/streams/streamsRepo.ts"
import { findUserByEmail } from "../../../src/server/account/usersRepo.ts"
import { dialects, type TestDatabase } from "../../support/dbHarness.ts"

const PLAYLIST = `#EXTM3U
#EXTINF:-1 tvg-id="one" tvg-logo="https://img.example.com/one.png" group-title="Sports, live",Sports One HD
https://cdn.example.com/one/index.m3u8
#EXTINF:-1,News, Weather & More
http://cdn.example.com/news.m3u8
#EXTINF:-1 tvg-logo="not a url",Bad
rtmp://old.example.com/live
`

describe("parseM3u", () => {
  it("reads titles, URLs and logos", () => {
    expect(parseM3u(PLAYLIST)).toEqual([
      { title: "Sports One HD", url: "https://cdn.example.com/one/index.m3u8", logo: "https://img.example.com/one.png" },
      { title: "News, Weather & More", url: "http://cdn.example.com/news.m3u8", logo: undefined },
      { title: "Bad", url: "rtmp://old.example.com/live", logo: "not a url" }
    ])
    expect(parseM3u("https://a.example.com/x.m3u8\r\n")).toEqual([{ title: "https://a.example.com/x.m3u8", url: "https://a.example.com/x.m3u8", logo: undefined }])
  })
})

describe.each(dialects)("operator CLI ($name)", (dialect) => {
  let database: TestDatabase
  let config: Config
  beforeEach(async () => {
    database = await dialect.create()
    config = loadConfig({ DATA_DIR: database.dataDir, DATABASE_URL: database.databaseUrl })
  })
  afterEach(() => database.dispose())

  // Shares the test's connection; one test below lets the CLI open the database itself.
  const admin = async (...argv: string[]) => {
    const lines: string[] = []
    const code = await runAdmin(argv, { config, out: (text) => lines.push(text), db: database.db })
    return { code, output: lines.join("\n") }
  }

  it("opens and migrates the configured database on its own", async () => {
    const lines: string[] = []
    const code = await runAdmin(["stream:add", "--title", "Own", "--src", "/live/demo1/index.m3u8"], { config, out: (text) => lines.push(text) })
    expect(code).toBe(0)
    expect(lines.join("\n")).toMatch(/^Added stream \d+: Own$/)
    expect((await listStreams(database.db.kysely)).map((s) => s.title)).toEqual(["Own"])
  })

  it("prints help, and refuses unknown commands and bad arguments with exit codes 1 and 2", async () => {
    const help = await admin("--help")
    expect(help.code).toBe(0)
    for (const name of ["user:create", "user:list", "maintenance:on", "maintenance:off", "announce", "stream:add", "stream:list",
      "stream:remove", "stream:maintenance", "stream:import", "settings:set", "settings:get"]) {
      expect(help.output).toContain(name)
    }
    expect(await admin("frobnicate")).toMatchObject({ code: 1, output: expect.stringContaining('Unknown command "frobnicate"') })
    expect((await admin("user:create", "--help")).output).toContain("--email E --password P [--username U] [--staff]")
    expect(await admin("user:create", "--email", "x@example.com")).toMatchObject({ code: 2, output: expect.stringContaining("--password is required") })
    expect(await admin("user:create", "--email", "nope", "--password", "longenough")).toMatchObject({ code: 2, output: expect.stringContaining("--email: Enter a valid email address.") })
    expect(await admin("user:create", "--email", "a@example.com", "--password", "short")).toMatchObject({ code: 2, output: expect.stringContaining("--password: Password length too short") })
    expect((await admin("stream:remove", "--id", "abc")).code).toBe(2)
    expect((await admin("stream:list", "--colour", "red")).code).toBe(2)
    expect((await admin("stream:maintenance", "--id", "1")).code).toBe(2)
    expect((await admin("settings:set", "--key", "nope", "--value", "1")).code).toBe(2)
    expect((await admin("settings:set", "--key", "pricePerRewardPoint", "--value", "lots")).code).toBe(2)
  })

  it("creates verified accounts, lists them and resets passwords", async () => {
    expect(await admin("user:create", "--email", "Boss@Example.com", "--password", "long password", "--staff")).toMatchObject({ code: 0 })
    expect((await admin("user:create", "--email", "fan@example.com", "--password", "another one", "--username", "Fan")).code).toBe(0)
    const boss = await findUserByEmail(database.db.kysely, "boss@example.com")
    expect(boss).toMatchObject({ email: "boss@example.com", username: "boss", is_staff: true })
    expect(boss?.email_verified_at).not.toBeNull()
    expect(await verifyPassword("long password", boss?.password_hash ?? "")).toBe(true)
    expect(await admin("user:create", "--email", "boss@example.com", "--password", "long password")).toMatchObject({ code: 1, output: expect.stringContaining("already exists") })

    const list = await admin("user:list")
    expect(list.output).toMatch(/boss@example\.com\s+boss\s+yes/)
    expect(list.output).toMatch(/fan@example\.com\s+Fan\s+no/)

    expect((await admin("user:password", "--email", "fan@example.com", "--password", "brand new pass")).code).toBe(0)
    const fan = await findUserByEmail(database.db.kysely, "fan@example.com")
    expect(await verifyPassword("brand new pass", fan?.password_hash ?? "")).toBe(true)
    expect((await admin("user:password", "--email", "ghost@example.com", "--password", "brand new pass")).code).toBe(1)
  })

  it("switches maintenance mode and publishes announcements", async () => {
    expect((await admin("maintenance:on", "--title", "Upgrade", "--first", "We are upgrading", "--second", "Back at 20:00")).code).toBe(0)
    expect(await getMaintenance(database.db.kysely)).toEqual({
      maintenance_mode: true, title: "Upgrade", first_row_text: "We are upgrading", second_row_text: "Back at 20:00"
    })
    expect((await admin("maintenance:off")).code).toBe(0)
    expect(await getMaintenance(database.db.kysely)).toMatchObject({ maintenance_mode: false, title: "Upgrade" })
    expect((await admin("maintenance:on", "--title", "x")).code).toBe(2)

    expect((await admin("announce", "--title", "Final", "--text", "Tonight at 9")).code).toBe(0)
    const first = await latestAnnouncement(database.db.kysely)
    expect(first).toMatchObject({ title: "Final", text: "Tonight at 9" })
    await admin("announce", "--title", "Second", "--text", "Another")
    expect((await latestAnnouncement(database.db.kysely))?.token).not.toBe(first?.token)
  })

  it("adds, lists, flags, removes and imports streams", async () => {
    expect((await admin("stream:add", "--title", "Arena", "--src", "https://cdn.example.com/a.m3u8", "--src-sldp", "/live/demo1/index.m3u8",
      "--image", "/posters/demo1.svg", "--tags", "lls, ?Info ,,airplay", "--tags-sldp", "lls")).code).toBe(0)
    expect((await admin("stream:add", "--title", "Bad", "--src", "ftp://nope")).code).toBe(2)
    expect((await admin("stream:add", "--title", "Premium Arena")).code).toBe(0)
    const premium = (await listStreams(database.db.kysely)).at(-1)
    expect(premium).toMatchObject({ title: "Premium Arena", src: null, src_sldp: null })
    expect((await admin("stream:list")).output).toContain("(subscribers only)")
    expect((await admin("stream:remove", "--id", String(premium?.id))).code).toBe(0)
    expect((await admin("stream:add", "--src", "/live/demo1/index.m3u8")).code).toBe(2)
    const [arena] = await listStreams(database.db.kysely)
    expect(arena).toMatchObject({
      title: "Arena", src: "https://cdn.example.com/a.m3u8", src_sldp: "/live/demo1/index.m3u8",
      image_location: "/posters/demo1.svg", tags: "lls,?Info,airplay", tags_sldp: "lls", maintenance_mode: false
    })
    const id = String(arena?.id)
    expect((await admin("stream:maintenance", "--id", id, "--on")).code).toBe(0)
    expect((await listStreams(database.db.kysely))[0]?.maintenance_mode).toBe(true)
    expect((await admin("stream:maintenance", "--id", id, "--off")).code).toBe(0)
    expect((await listStreams(database.db.kysely))[0]?.maintenance_mode).toBe(false)
    expect((await admin("stream:maintenance", "--id", "99999", "--on")).code).toBe(1)

    const file = path.join(database.dataDir, "playlist.m3u")
    await writeFile(file, PLAYLIST)
    const imported = await admin("stream:import", "--file", file)
    expect(imported.code).toBe(0)
    expect(imported.output).toContain("Imported 2 stream(s)")
    const streams = await listStreams(database.db.kysely)
    expect(streams.map((s) => [s.title, s.src, s.image_location])).toEqual([
      ["Arena", "https://cdn.example.com/a.m3u8", "/posters/demo1.svg"],
      ["Sports One HD", "https://cdn.example.com/one/index.m3u8", "https://img.example.com/one.png"],
      ["News, Weather & More", "http://cdn.example.com/news.m3u8", ""]
    ])
    expect((await admin("stream:import", "--file", path.join(database.dataDir, "missing.m3u"))).code).toBe(1)

    const list = await admin("stream:list")
    expect(list.output).toContain("Sports One HD")
    expect((await admin("stream:remove", "--id", id)).code).toBe(0)
    expect((await admin("stream:remove", "--id", id)).code).toBe(1)
    expect(await listStreams(database.db.kysely)).toHaveLength(2)
  })

  it("sets and shows site settings with their types", async () => {
    expect((await admin("settings:set", "--key", "pricePerRewardPoint", "--value", "0.25")).code).toBe(0)
    expect((await admin("settings:set", "--key", "siteName", "--value", "Match Night")).code).toBe(0)
    expect(await getSettings(database.db.kysely)).toMatchObject({ pricePerRewardPoint: 0.25, siteName: "Match Night" })
    const shown = await admin("settings:get")
    expect(shown.output).toContain("pricePerRewardPoint = 0.25")
    expect(shown.output).toContain('siteName = "Match Night"')
    expect(shown.output).toContain('chatUrl = "https://discord.com/" (default)')
  })
})

describe("operator CLI as a process", () => {
  it("npm run admin -- --help lists the commands", async () => {
    const root = fileURLToPath(new URL("../../..", import.meta.url))
    const { stdout } = await promisify(execFile)("npm", ["run", "--silent", "admin", "--", "--help"], { cwd: root })
    expect(stdout).toContain("Usage: npm run admin -- <command> [options]")
    expect(stdout).toContain("user:create --email E --password P [--username U] [--staff]")
  })

  it("exits 1 on an unknown command", async () => {
    const root = fileURLToPath(new URL("../../..", import.meta.url))
    const failure = await promisify(execFile)("npm", ["run", "--silent", "admin", "--", "nope"], { cwd: root }).catch((error: { code: number; stderr: string }) => error)
    expect(failure).toMatchObject({ code: 1 })
    expect((failure as { stderr: string }).stderr).toContain('Unknown command "nope"')
  })
})

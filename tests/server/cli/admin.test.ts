import { execFile } from "node:child_process"
import { mkdtemp, rm, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { promisify } from "node:util"
import { describe, expect, it } from "vitest"
import { runAdmin } from "../../../src/server/cli/admin.ts"
import { loadConfig } from "../../../src/server/config.ts"
import { listStreams } from "../../../src/server/streams/streamsRepo.ts"
import { useAdmin } from "../../support/cliHarness.ts"
import { dialects } from "../../support/dbHarness.ts"

describe.each(dialects)("operator CLI ($name)", (dialect) => {
  const cli = useAdmin(dialect)
  const admin = cli.admin

  it("opens and migrates the configured database on its own", async () => {
    const lines: string[] = []
    // without the test's connection: the CLI opens the database itself
    const code = await runAdmin(["stream:add", "--title", "Own", "--src", "/live/demo1/index.m3u8"], {
      config: cli.config,
      out: (text) => lines.push(text)
    })
    expect(code).toBe(0)
    expect(lines.join("\n")).toMatch(/^Added stream \d+: Own$/)
    expect((await listStreams(cli.database.db.kysely)).map((s) => s.title)).toEqual(["Own"])
  })

  it("prints help, and refuses unknown commands and bad arguments with exit codes 1 and 2", async () => {
    const help = await admin("--help")
    expect(help.code).toBe(0)
    for (const name of [
      "user:create",
      "user:list",
      "maintenance:on",
      "maintenance:off",
      "announce",
      "stream:add",
      "stream:list",
      "stream:remove",
      "stream:maintenance",
      "stream:import",
      "settings:set",
      "settings:get"
    ]) {
      expect(help.output).toContain(name)
    }
    expect(await admin("frobnicate")).toMatchObject({ code: 1, output: expect.stringContaining('Unknown command "frobnicate"') })
    expect((await admin("user:create", "--help")).output).toContain("--email E --password P [--username U] [--staff]")
    expect(await admin("user:create", "--email", "x@example.com")).toMatchObject({
      code: 2,
      output: expect.stringContaining("--password is required")
    })
    expect(await admin("user:create", "--email", "nope", "--password", "longenough")).toMatchObject({
      code: 2,
      output: expect.stringContaining("--email: Enter a valid email address.")
    })
    expect(await admin("user:create", "--email", "a@example.com", "--password", "short")).toMatchObject({
      code: 2,
      output: expect.stringContaining("--password: Password length too short")
    })
    expect((await admin("stream:remove", "--id", "abc")).code).toBe(2)
    expect((await admin("stream:list", "--colour", "red")).code).toBe(2)
    expect((await admin("stream:maintenance", "--id", "1")).code).toBe(2)
    expect((await admin("settings:set", "--key", "nope", "--value", "1")).code).toBe(2)
    expect((await admin("settings:set", "--key", "pricePerRewardPoint", "--value", "lots")).code).toBe(2)
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
    const failure = await promisify(execFile)("npm", ["run", "--silent", "admin", "--", "nope"], { cwd: root }).catch(
      (error: { code: number; stderr: string }) => error
    )
    expect(failure).toMatchObject({ code: 1 })
    expect((failure as { stderr: string }).stderr).toContain('Unknown command "nope"')
  })

  it("says so when it creates the database, as a mistyped DATA_DIR would have it do", async () => {
    const dir = await mkdtemp(join(tmpdir(), "admin-"))
    try {
      const out: string[] = []
      const err: string[] = []
      const config = loadConfig({ DATA_DIR: join(dir, "typo") })
      expect(await runAdmin(["user:list"], { config, out: (text) => out.push(text), err: (text) => err.push(text) })).toBe(0)
      expect(out).toEqual(["No accounts"])
      expect(err).toEqual([`No database at ${join(dir, "typo", "app.db")} yet: creating one. Set DATA_DIR if the server's is elsewhere.`])
      // the next command finds it
      err.length = 0
      expect(await runAdmin(["user:list"], { config, out: () => undefined, err: (text) => err.push(text) })).toBe(0)
      expect(err).toEqual([])
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })

  it("says in one line, without a stack, that the database cannot be opened", async () => {
    const root = fileURLToPath(new URL("../../..", import.meta.url))
    const dir = await mkdtemp(join(tmpdir(), "admin-"))
    try {
      const file = join(dir, "not-a-directory")
      await writeFile(file, "")
      const env = { ...process.env, DATA_DIR: file, DATABASE_URL: "" }
      const failure = await promisify(execFile)("npm", ["run", "--silent", "admin", "--", "user:list"], { cwd: root, env }).catch(
        (error: { code: number; stderr: string }) => error
      )
      expect(failure).toMatchObject({ code: 1 })
      const stderr = (failure as { stderr: string }).stderr.trim().split("\n")
      expect(stderr.at(-1)).toMatch(/^admin: EEXIST: file already exists, mkdir '.*not-a-directory'$/)
      expect(stderr.some((line) => line.includes("    at "))).toBe(false)
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })
})

import { writeFile } from "node:fs/promises"
import { join } from "node:path"
import { gzipSync } from "node:zlib"
import { describe, expect, it } from "vitest"
import { consoleIo } from "../../../src/server/cli/admin.ts"
import { setSetting } from "../../../src/server/shell/settingsRepo.ts"
import { useAdmin } from "../../support/cliHarness.ts"
import { dialects } from "../../support/dbHarness.ts"
import { guideSnapshot, hourly, serveGuide, xmltv } from "./guideFixtures.ts"

const GOOD = xmltv(
  [
    { id: "sport1.tv", name: "Sport 1" },
    { id: "news.tv", name: "News" }
  ],
  [
    ...hourly("sport1.tv", "2026-11-23T06:00:00Z", "2026-11-23T12:00:00Z", "Match"),
    { channel: "news.tv", start: "2026-11-23T06:00:00Z", title: "Morning" },
    { channel: "news.tv", start: "2026-11-23T09:00:00Z", title: "Last one, no stop" }
  ]
)

describe.each(dialects)("guide commands of the operator CLI ($name)", (dialect) => {
  const cli = useAdmin(dialect)
  const file = async (name: string, content: string | Uint8Array) => {
    const path = join(cli.database.dataDir, name)
    await writeFile(path, content)
    return path
  }

  it("imports a file, plain or gzip, and says what it did", async () => {
    const plain = await file("guide.xml", GOOD)
    const result = await cli.admin("guide:import", "--file", plain)
    expect(result.code).toBe(0)
    expect(result.output).toMatch(
      new RegExp(
        `^Imported 8 programmes on 2 channels from ${plain} in \\d+\\.\\d s, 2026-11-23 06:00 to 2026-11-23 12:00 UTC; ` +
          "repaired 2 programmes \\(1 no stop, ended where the next one starts, 1 no stop and last of its channel, given 1 hour\\)$"
      )
    )
    const packed = await file("guide.xml.gz", gzipSync(GOOD))
    expect((await cli.admin("guide:import", "--file", packed)).output).toMatch(/^Imported 8 programmes on 2 channels /)
    expect((await guideSnapshot(cli.database.db.kysely)).programmes).toHaveLength(8)

    const channels = await cli.admin("guide:channels")
    expect(channels.output.split("\n").map((line) => line.replace(/\s+/g, " ").trim())).toEqual([
      "epg id name source streams programmes until",
      expect.stringMatching(/^-+ /),
      "news.tv News xmltv - 2 2026-11-23 10:00",
      "sport1.tv Sport 1 xmltv - 6 2026-11-23 12:00"
    ])
    await cli.admin("stream:add", "--title", "Sport One", "--epg-id", "sport1.tv")
    await cli.admin("stream:add", "--title", "Later", "--epg-id", "later.tv")
    const tied = await cli.admin("guide:channels")
    expect(tied.output).toMatch(/sport1\.tv\s+Sport 1\s+xmltv\s+1 Sport One\s+6/)
    expect(tied.output).toContain('Stream 2 (Later) names epg id "later.tv", which no guide has yet')
  })

  it("fails with exit code 1, the line and the reason, and leaves the guide as it was", async () => {
    await cli.admin("guide:import", "--file", await file("guide.xml", GOOD))
    const before = await guideSnapshot(cli.database.db.kysely)
    const broken = await file("broken.xml", GOOD.replace('<title lang="en">Match 08:00</title>', "<title>Match 08:00</tilte>"))
    const failed = await cli.admin("guide:import", "--file", broken)
    expect(failed).toEqual({
      code: 1,
      output: `guide:import: ${broken}: line 8, column 116: unexpected close tag.; the guide is unchanged`
    })
    const truncated = await file("cut.xml", GOOD.slice(0, GOOD.length / 2))
    expect((await cli.admin("guide:import", "--file", truncated)).output).toMatch(
      /^guide:import: .*cut\.xml: line \d+, column \d+: unclosed tag: \w+; the guide is unchanged$/
    )
    const missing = await cli.admin("guide:import", "--file", join(cli.database.dataDir, "nope.xml"))
    expect(missing.code).toBe(1)
    expect(missing.output).toMatch(/nope\.xml: ENOENT: no such file or directory; the guide is unchanged$/)
    expect(await guideSnapshot(cli.database.db.kysely)).toEqual(before)
  })

  it("refuses unusable arguments with exit code 2", async () => {
    for (const args of [
      [],
      ["--file", "a.xml", "--url", "https://epg.example.com/a.xml"],
      ["--url", "ftp://epg.example.com/a.xml"],
      ["--file", ""],
      ["--bogus"]
    ]) {
      const result = await cli.admin("guide:import", ...args)
      expect(result.code, args.join(" ")).toBe(2)
      expect(result.output).toContain("Usage: npm run admin -- guide:import --file F | --url U")
    }
  })

  it("fetches the URL given, or the site setting guideUrl, showing progress at most every 250 ms", async () => {
    const slow = await serveGuide(GOOD, { parts: 12, delayMs: 100 })
    try {
      const started = performance.now()
      const result = await cli.admin("guide:import", "--url", `${slow.url}?key=secret`)
      const elapsed = performance.now() - started
      expect(result.code).toBe(0)
      const lines = result.output.split("\n")
      const progress = lines.filter((line) => line.startsWith("\r"))
      expect(progress.length).toBeGreaterThanOrEqual(2)
      expect(progress.length).toBeLessThanOrEqual(Math.floor(elapsed / 250) + 1)
      for (const line of progress) expect(line).toMatch(/^\rReading the guide: \d+ programmes?, \d+ channels?, \d+\.\d s$/)
      expect(lines.at(-1)).toMatch(new RegExp(`^Imported 8 programmes on 2 channels from ${slow.url} in `))
      expect(result.output).not.toContain("secret")

      await setSetting(cli.database.db.kysely, "guideUrl", slow.url)
      expect((await cli.admin("guide:import")).code).toBe(0)
      expect(slow.requests()).toBe(2)
    } finally {
      await slow.close()
    }
    const gone = await serveGuide(GOOD)
    await gone.close()
    const refused = await cli.admin("guide:import", "--url", gone.url)
    expect(refused.code).toBe(1)
    expect(refused.output).toMatch(
      /^guide:import: http:\/\/127\.0\.0\.1:\d+\/guide\.xml: connect ECONNREFUSED [\d.:]+; the guide is unchanged$/
    )
  })

  it("takes guideUrl as a site setting only browsers never see", async () => {
    expect((await cli.admin("settings:set", "--key", "guideUrl", "--value", "not a url")).code).toBe(2)
    expect((await cli.admin("settings:set", "--key", "guideUrl", "--value", "https://epg.example.com/guide.xml.gz?u=1")).code).toBe(0)
    expect((await cli.admin("settings:get")).output).toContain('guideUrl = "https://epg.example.com/guide.xml.gz?u=1"')
    expect((await cli.admin("settings:set", "--key", "guideUrl", "--value", "")).code).toBe(0)
  })
})

describe("the CLI's console output", () => {
  const fakeStream = (isTTY: boolean) => {
    let written = ""
    return { stream: { isTTY, write: (text: string) => (written += text) } as unknown as NodeJS.WriteStream, written: () => written }
  }

  it("overwrites status lines in place on a terminal and ends them before anything else", () => {
    const stdout = fakeStream(true)
    const stderr = fakeStream(true)
    const io = consoleIo(stdout.stream, stderr.stream)
    io.err?.("\rReading 1")
    io.err?.("\rReading 2")
    io.out("Imported")
    expect(stderr.written()).toBe("\r\x1b[2KReading 1\r\x1b[2KReading 2\n")
    expect(stdout.written()).toBe("Imported\n")
  })

  it("writes status lines as plain lines elsewhere", () => {
    const stdout = fakeStream(false)
    const stderr = fakeStream(false)
    const io = consoleIo(stdout.stream, stderr.stream)
    io.err?.("\rReading 1")
    io.err?.("\rReading 2")
    io.err?.("a note")
    io.out("Imported")
    expect(stderr.written()).toBe("Reading 1\nReading 2\na note\n")
    expect(stdout.written()).toBe("Imported\n")
  })
})

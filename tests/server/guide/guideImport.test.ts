import { writeFile } from "node:fs/promises"
import { join } from "node:path"
import { gzipSync } from "node:zlib"
import { afterEach, beforeEach, describe, expect, it } from "vitest"
import { prepareStaging } from "../../../src/server/guide/guideImportRepo.ts"
import { guideText } from "../../../src/server/guide/guideSource.ts"
import { importGuide } from "../../../src/server/guide/importGuide.ts"
import { describeImport } from "../../../src/server/guide/importReport.ts"
import { dialects, type TestDatabase } from "../../support/dbHarness.ts"
import { WAIT_MS } from "../../support/timeouts.ts"
import { guideSnapshot, hourly, load, serveGuide, stagedRows, xmltv } from "./guideFixtures.ts"

const NOW = Date.parse("2026-11-20T00:00:00Z")

describe.each(dialects)("XMLTV import ($name)", (dialect) => {
  let database: TestDatabase
  beforeEach(async () => {
    database = await dialect.create()
  })
  afterEach(() => database.dispose())
  const db = () => database.db.kysely
  const titles = async (channel: string) =>
    (
      await db()
        .selectFrom("guide_programmes")
        .select(["start_at", "title"])
        .where("channel_id", "=", channel)
        .orderBy("start_at")
        .execute()
    ).map((p) => `${p.start_at.slice(11, 16)} ${p.title}`)

  it("replaces, per channel the file mentions, only the window from its earliest start to its latest stop", async () => {
    const first = await load(
      db(),
      xmltv(
        [
          { id: "a", name: "Alpha" },
          { id: "b", name: "Bravo" },
          { id: "d", name: "Delta" }
        ],
        [
          ...hourly("a", "2026-11-23T10:00:00Z", "2026-11-23T16:00:00Z", "Old"),
          ...hourly("b", "2026-11-23T10:00:00Z", "2026-11-23T12:00:00Z", "Bravo"),
          { channel: "d", start: "2026-11-23T11:30:00Z", stop: "2026-11-23T12:30:00Z", title: "Straddles" },
          { channel: "d", start: "2026-11-23T12:30:00Z", stop: "2026-11-23T13:30:00Z", title: "Replaced" }
        ]
      )
    )
    expect(first).toMatchObject({
      programmes: 10,
      channels: 3,
      window: { from: "2026-11-23T10:00:00.000Z", to: "2026-11-23T16:00:00.000Z" }
    })

    const second = await load(
      db(),
      xmltv(
        [{ id: "c", name: "Charlie" }],
        [
          ...hourly("a", "2026-11-23T12:00:00Z", "2026-11-23T14:00:00Z", "New", 30),
          ...hourly("c", "2026-11-23T12:00:00Z", "2026-11-23T13:00:00Z", "Charlie"),
          { channel: "d", start: "2026-11-23T12:00:00Z", stop: "2026-11-23T14:00:00Z", title: "Fresh" }
        ]
      )
    )
    expect(second).toMatchObject({ programmes: 6, channels: 3 })

    expect(await titles("a")).toEqual([
      "10:00 Old 10:00",
      "11:00 Old 11:00",
      "12:00 New 12:00",
      "12:30 New 12:30",
      "13:00 New 13:00",
      "13:30 New 13:30",
      "14:00 Old 14:00",
      "15:00 Old 15:00"
    ])
    expect(await titles("b")).toEqual(["10:00 Bravo 10:00", "11:00 Bravo 11:00"])
    expect(await titles("c")).toEqual(["12:00 Charlie 12:00"])
    // what overlapped the new window went, even where it began before it
    expect(await titles("d")).toEqual(["12:00 Fresh"])
    expect((await guideSnapshot(db())).channels).toEqual([
      { id: "a", name: "Alpha", source: "xmltv" },
      { id: "b", name: "Bravo", source: "xmltv" },
      { id: "c", name: "Charlie", source: "xmltv" },
      { id: "d", name: "Delta", source: "xmltv" }
    ])
    expect(await stagedRows(db())).toBe(0)
  })

  it("keeps the last good guide when a file is malformed, truncated or cannot be fetched", async () => {
    const good = xmltv([{ id: "a", name: "Alpha" }], hourly("a", "2026-11-23T00:00:00Z", "2026-11-24T00:00:00Z", "Good"))
    await load(db(), good)
    const before = await guideSnapshot(db())
    expect(before.programmes).toHaveLength(24)

    const replacement = xmltv([{ id: "a", name: "Renamed" }], hourly("a", "2026-11-23T00:00:00Z", "2026-11-24T00:00:00Z", "Bad", 30))
    const malformed = replacement.replace("Bad 05:00", "Bad &nope; 05:00")
    await expect(load(db(), malformed)).rejects.toThrow(/^line 15, column \d+: undefined entity\.$/)
    const truncated = replacement.slice(0, replacement.length - 200)
    await expect(load(db(), truncated)).rejects.toThrow(/^line \d+, column \d+: unclosed tag: /)

    const file = join(database.dataDir, "cut.xml.gz")
    const packed = gzipSync(replacement)
    await writeFile(file, packed.subarray(0, packed.length / 2))
    await expect(importGuide(db(), guideText({ file }), { now: NOW })).rejects.toThrow("gzip: unexpected end of file")

    const missing = await serveGuide(replacement, { status: 404 })
    await expect(importGuide(db(), guideText({ url: missing.url }), { now: NOW })).rejects.toThrow("HTTP 404 Not Found")
    const url = missing.url
    await missing.close()
    await expect(importGuide(db(), guideText({ url }), { now: NOW })).rejects.toThrow(/ECONNREFUSED/)

    expect(await guideSnapshot(db())).toEqual(before)
    expect(await stagedRows(db())).toBe(0)
  })

  it("gives up on a guide server that goes quiet, takes too long or sends too much, keeping the last good guide", async () => {
    const good = xmltv([{ id: "a", name: "Alpha" }], hourly("a", "2026-11-23T00:00:00Z", "2026-11-24T00:00:00Z", "Good"))
    await load(db(), good)
    const before = await guideSnapshot(db())
    const text = xmltv([{ id: "a", name: "Renamed" }], hourly("a", "2026-11-23T00:00:00Z", "2026-11-25T00:00:00Z", "New"))
    // the stall limit is short only for the server that goes quiet: the others' pauses between
    // pieces may grow on a busy machine, and must not pass for silence
    const limits = { downloadMs: 60_000, stallMs: WAIT_MS, maxBytes: 1024 * 1024 }
    // a third of the file, then nothing: the connection stays open
    const quiet = await serveGuide(text, { parts: 3, delayMs: 60_000 })
    const slow = await serveGuide(text, { parts: 40, delayMs: 100 })
    // a small gzip that unpacks to far more than the limit
    const bomb = await serveGuide(gzipSync(text.replace("</tv>", `<!-- ${"x".repeat(4 * 1024 * 1024)} --></tv>`)))
    try {
      await expect(importGuide(db(), guideText({ url: quiet.url }, undefined, { ...limits, stallMs: 300 }), { now: NOW })).rejects.toThrow(
        "the guide server sent nothing for 300 ms"
      )
      await expect(
        importGuide(db(), guideText({ url: slow.url }, undefined, { ...limits, downloadMs: 500 }), { now: NOW })
      ).rejects.toThrow("the download took longer than 500 ms")
      await expect(importGuide(db(), guideText({ url: bomb.url }, undefined, limits), { now: NOW })).rejects.toThrow(
        "the guide is larger than 1 MiB"
      )
    } finally {
      await Promise.all([quiet.close(), slow.close(), bomb.close()])
    }
    expect(await guideSnapshot(db())).toEqual(before)
    expect(await stagedRows(db())).toBe(0)
    // within the limits, the same server's guide imports
    const fine = await serveGuide(text, { parts: 3, delayMs: 100 })
    try {
      expect(await importGuide(db(), guideText({ url: fine.url }, undefined, limits), { now: NOW })).toMatchObject({ channels: 1 })
    } finally {
      await fine.close()
    }
  })

  it("imports a gzip file from a URL, streamed in pieces, as well as a plain one", async () => {
    const text = xmltv([{ id: "a", name: "Alpha" }], hourly("a", "2026-11-23T00:00:00Z", "2026-11-25T00:00:00Z", "Slot"))
    const served = await serveGuide(gzipSync(text), { parts: 5 })
    try {
      const result = await importGuide(db(), guideText({ url: served.url }), { now: NOW })
      expect(result).toMatchObject({ programmes: 48, channels: 1 })
    } finally {
      await served.close()
    }
    expect(await titles("a")).toHaveLength(48)
  })

  it("stores more programmes than one statement holds, a programme listed twice once, and reports progress", async () => {
    const many = hourly("a", "2026-11-01T00:00:00Z", "2026-12-31T00:00:00Z", "Slot", 60)
    expect(many.length).toBeGreaterThan(1400)
    const seen: Array<number> = []
    const result = await importGuide(
      db(),
      (async function* () {
        const text = xmltv([{ id: "a" }], [...many, many[0] ?? many[1]!])
        for (let i = 0; i < text.length; i += 8192) yield text.slice(i, i + 8192)
      })(),
      { now: NOW, onProgress: (p) => seen.push(p.programmes) }
    )
    expect(result.programmes).toBe(many.length + 1)
    expect(await titles("a")).toHaveLength(many.length)
    expect(seen.length).toBeGreaterThan(5)
    expect(seen).toEqual([...seen].sort((x, y) => x - y))
    // a channel named nowhere is listed under its id until a file names it
    expect((await guideSnapshot(db())).channels).toEqual([{ id: "a", name: "a", source: "xmltv" }])
    await load(db(), xmltv([{ id: "a", name: "Alpha" }], []))
    await load(db(), xmltv([], [{ channel: "a", start: "2026-12-31T00:00:00Z", stop: "2026-12-31T01:00:00Z", title: "Late" }]))
    expect((await guideSnapshot(db())).channels).toEqual([{ id: "a", name: "Alpha", source: "xmltv" }])
  })

  it("keeps what a real-world grabber writes: the last programme without stop, a stop past midnight on the same date", async () => {
    // as an iptv-org grabber writes it: stops in the listing's date, the channel's last without one
    const text = [
      `<?xml version="1.0" encoding="UTF-8" ?><tv date="20261123">`,
      `<channel id="Kanal5.se@SD"><display-name>Kanal 5</display-name><url>https://example.com</url></channel>`,
      `<programme start="20261123213000 +0000" stop="20261123232000 +0000" channel="Kanal5.se@SD"><title lang="sv">Nyheter</title></programme>`,
      `<programme start="20261123232000 +0000" stop="20261123010000 +0000" channel="Kanal5.se@SD"><title lang="sv">Nattfilm</title></programme>`,
      `<programme start="20261124010000 +0000" channel="Kanal5.se@SD"><title lang="sv">Sista</title></programme>`,
      `</tv>`
    ].join("\n")
    const result = await load(db(), text)
    expect(result).toMatchObject({
      programmes: 3,
      channels: 1,
      window: { from: "2026-11-23T21:30:00.000Z", to: "2026-11-24T02:00:00.000Z" }
    })
    expect(Object.fromEntries(result.skipped)).toEqual({})
    expect((await guideSnapshot(db())).programmes.map((p) => `${p.title} ${p.start_at} ${p.stop_at}`)).toEqual([
      "Nyheter 2026-11-23T21:30:00.000Z 2026-11-23T23:20:00.000Z",
      "Nattfilm 2026-11-23T23:20:00.000Z 2026-11-24T01:00:00.000Z",
      "Sista 2026-11-24T01:00:00.000Z 2026-11-24T02:00:00.000Z"
    ])
    // what the CLI prints and the refresh job logs
    expect(describeImport(result, "guide.xml", 1200)).toBe(
      "Imported 3 programmes on 1 channel from guide.xml in 1.2 s, 2026-11-23 21:30 to 2026-11-24 02:00 UTC; " +
        "repaired 2 programmes (1 stop before start on the same date, read as the next day, 1 no stop and last of its channel, given 1 hour)"
    )
  })

  it("clears what an import that died long ago left staged", async () => {
    await prepareStaging(db())
    await db()
      .insertInto("guide_staging")
      .values({
        import_id: "2026-11-01T00:00:00.000Z#dead",
        channel_id: "a",
        start_at: "2026-11-01T00:00:00.000Z",
        stop_at: "2026-11-01T01:00:00.000Z",
        title: "x",
        subtitle: ""
      })
      .execute()
    await load(db(), xmltv([], []))
    expect(await stagedRows(db())).toBe(0)
  })
})

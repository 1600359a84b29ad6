import { mkdtemp, rm, writeFile } from "node:fs/promises"
import os from "node:os"
import path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { feeds } from "../../../src/server/feeds/feedsFeature.ts"
import { useAdmin } from "../../support/cliHarness.ts"
import { dialects } from "../../support/dbHarness.ts"
import { startUpstream, type Upstream } from "../../support/relayUpstream.ts"
import { xmltv } from "../guide/guideFixtures.ts"

const ADMIN = "ops"
const SECRET = "hunter2-long-enough"

describe.each(dialects)("the audit log of operator commands ($name)", (dialect) => {
  const cli = useAdmin(dialect)
  let dir = ""
  let upstream: Upstream
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), "streamhub-audit-"))
    upstream = await startUpstream()
  })
  afterAll(async () => {
    await upstream.stop()
    await rm(dir, { recursive: true, force: true })
  })

  const as = (...argv: string[]) => cli.adminAs(ADMIN, ...argv)
  const rows = () => cli.database.db.kysely.selectFrom("audit_log").selectAll().orderBy("id").execute()
  const ok = async (...argv: string[]) => {
    const result = await as(...argv)
    expect(result.code, result.output).toBe(0)
    return result.output
  }
  /** what running `argv` added to the log, as action, target and detail */
  const logged = async (...argv: string[]) => {
    const before = (await rows()).length
    await ok(...argv)
    return (await rows()).slice(before).map((row) => [row.action, row.target, row.detail])
  }

  it("names the operator and no address, and keeps the shell, account, reward and payment commands", async () => {
    expect(await logged("maintenance:on", "--title", "Upgrade", "--first", "Back soon", "--second", "20:00")).toEqual([
      ["maintenance.on", "site", '{"title":"Upgrade","first":"Back soon","second":"20:00"}']
    ])
    const [entry] = await rows()
    expect(entry).toMatchObject({ actor: "cli:ops", actor_user_id: null, address: null })
    expect(await logged("maintenance:off")).toEqual([["maintenance.off", "site", ""]])
    expect(await logged("announce", "--title", "Final", "--text", "Tonight")).toEqual([
      ["announcement.set", expect.stringMatching(/^announcement \d+$/), '{"title":"Final","text":"Tonight"}']
    ])
    expect(await logged("settings:set", "--key", "siteName", "--value", "Match Night")).toEqual([
      ["settings.set", "setting siteName", '"Match Night"']
    ])
    // a provider's credentials in the guide's address stay out of the log
    expect(await logged("settings:set", "--key", "guideUrl", "--value", "https://guide.example.com/tv.xml?token=abc123")).toEqual([
      ["settings.set", "setting guideUrl", '"https://guide.example.com/tv.xml?…"']
    ])

    const created = await logged("user:create", "--email", "Fan@Example.com", "--password", SECRET)
    expect(created).toEqual([["user.create", expect.stringMatching(/^user \d+ \(fan@example\.com\)$/), "customer, username fan"]])
    const target = created[0]?.[1]
    expect(await logged("user:password", "--email", "fan@example.com", "--password", `${SECRET}-2`)).toEqual([
      ["user.password", target, "password replaced; 0 session(s) ended"]
    ])
    expect(await logged("user:disable", "--email", "fan@example.com")).toEqual([["user.disable", target, "0 session(s) ended"]])
    expect(await logged("user:enable", "--email", "fan@example.com")).toEqual([["user.enable", target, ""]])
    expect(await logged("user:metering", "--email", "fan@example.com", "--off")).toEqual([["user.metering", target, '{"metered":false}']])
    // nothing failed yet: nothing queued, nothing logged
    expect(await logged("mail:retry", "--all-failed")).toEqual([])
    await cli.database.db.kysely
      .insertInto("outbox")
      .values({
        to_address: "fan@example.com",
        kind: "ticket-reply",
        subject: "Re: hello",
        text_body: "hi",
        html_body: "<p>hi</p>",
        status: "failed",
        attempts: 5,
        last_error: "refused",
        created_at: "2026-01-01T00:00:00.000Z",
        next_attempt_at: "2026-01-01T00:00:00.000Z",
        sent_at: null
      })
      .execute()
    expect(await logged("mail:retry", "--all-failed")).toEqual([["mail.retry", expect.stringMatching(/^mail \d+$/), '{"mails":1}']])
    expect(await logged("rewards:adjust", "--email", "fan@example.com", "--points", "3")).toEqual([
      ["rewards.adjust", target, "+3 points: 0 → 3"]
    ])
    expect(
      await logged(
        "payment:add",
        "--email",
        "fan@example.com",
        "--amount",
        "5",
        "--provider",
        "btc",
        "--currency",
        "USD",
        "--date",
        "2026-01-02"
      )
    ).toEqual([["payment.add", target, expect.stringMatching(/^5 USD by btc, paid 2026-01-02T00:00:00\.000Z, month from 2026-01-02/)]])
    const csv = path.join(dir, "activity.csv")
    await writeFile(
      csv,
      [
        '"Date","Time","TimeZone","Name","Type","Status","Currency","Gross","Fee","Net","From Email Address","Transaction ID"',
        '"23/01/2026","10:00:00","UTC","Fan","Subscription Payment","Completed","USD","5.00","-0.45","4.55","fan@example.com","TX1"'
      ].join("\n")
    )
    expect(await logged("payment:import", "--file", csv)).toEqual([
      ["payment.import", `file ${csv}`, "1 recorded, 0 already there, 0 without an account"]
    ])
    // importing it again changes nothing, so nothing is logged
    expect(await logged("payment:import", "--file", csv)).toEqual([])

    expect(JSON.stringify(await rows())).not.toContain(SECRET)
  })

  it("keeps the stream and guide commands, without upstream credentials or ingest keys", async () => {
    const added = await logged("stream:add", "--title", "Derby", "--src", "https://cdn.example.com/derby.m3u8?sig=s3cr3t")
    expect(added).toEqual([["stream.add", expect.stringMatching(/^stream \d+$/), '"Derby", plays https://cdn.example.com/derby.m3u8?…']])
    const stream = added[0]?.[1] ?? ""
    const id = stream.replace("stream ", "")
    expect(await logged("stream:set", "--id", id, "--title", "Derby Day", "--tags", "!Late")).toEqual([
      ["stream.set", stream, 'title = "Derby Day", tags = "!Late"']
    ])
    expect(await logged("stream:maintenance", "--id", id, "--on")).toEqual([["stream.maintenance", stream, "on"]])
    expect(
      await logged("stream:relay", "--id", id, "--relay", `${upstream.url}/live/demo1/index.m3u8`, "--header", "Authorization: Bearer xyz")
    ).toEqual([
      [
        "stream.relay",
        stream,
        expect.stringMatching(/^relay of http:\/\/127\.0\.0\.1:\d+\/live\/demo1\/index\.m3u8 with 1 header, on demand$/)
      ]
    ])
    // an ingest channel's key is replaced without ffmpeg; the log says so, never the key
    await feeds.save(cli.database.db.kysely, {
      kind: "ingest",
      streamId: Number(id),
      upstreamUrl: feeds.storedIngestKey(feeds.newIngestKey()),
      headers: [],
      alwaysOn: false,
      at: new Date().toISOString()
    })
    const rotated = await as("stream:key", "--id", id, "--rotate")
    expect(rotated.code, rotated.output).toBe(0)
    const key = /\/([A-Za-z0-9_-]{16,})\b/.exec(rotated.output)?.[1]
    expect(key, rotated.output).toBeDefined()
    expect((await rows()).at(-1)).toMatchObject({ action: "stream.key.rotate", target: stream, detail: "new ingest key" })
    expect(JSON.stringify(await rows())).not.toContain(key ?? "")
    expect(await logged("stream:remove", "--id", id)).toEqual([["stream.remove", stream, ""]])

    const playlist = path.join(dir, "channels.m3u")
    await writeFile(
      playlist,
      '#EXTM3U\n#EXTINF:-1 tvg-id="one",One\nhttps://a.example.com/one.m3u8\n#EXTINF:-1,Two\nhttps://b.example.com/two.m3u8\n'
    )
    expect(await logged("stream:import", "--file", playlist)).toEqual([
      ["stream.import", expect.stringMatching(/^stream \d+$/), `"One", plays https://a.example.com/one.m3u8, from ${playlist}`],
      ["stream.import", expect.stringMatching(/^stream \d+$/), `"Two", plays https://b.example.com/two.m3u8, from ${playlist}`]
    ])

    const guide = path.join(dir, "guide.xml")
    await writeFile(
      guide,
      xmltv([{ id: "one", name: "One" }], [{ channel: "one", start: "2026-01-15T18:00:00Z", stop: "2026-01-15T20:00:00Z", title: "Derby" }])
    )
    expect(await logged("guide:import", "--file", guide)).toEqual([
      ["guide.import", "guide", `1 programmes on 1 channels from file ${guide}`]
    ])
    expect(JSON.stringify(await rows())).not.toMatch(/s3cr3t|Bearer|xyz/)
  })

  it("writes nothing for commands that only read, or that fail", async () => {
    await ok("user:create", "--email", "staff@example.com", "--password", SECRET, "--staff")
    const before = await rows()
    for (const argv of [["user:list"], ["stream:list"], ["settings:get"], ["guide:channels"], ["mail:list"], ["audit:list"]])
      await ok(...argv)
    expect((await as("user:create", "--email", "staff@example.com", "--password", SECRET)).code).toBe(1)
    expect((await as("stream:remove", "--id", "9999")).code).toBe(1)
    expect((await as("rewards:adjust", "--email", "staff@example.com", "--points=-5")).code).toBe(1)
    expect(await rows()).toEqual(before)
  })

  it("lists the log newest first, one entry a line, filtered by actor, by action and in number", async () => {
    expect((await as("audit:list")).output).toBe("No audit entries")
    await ok("maintenance:on", "--title", "Upgrade", "--first", "Back soon", "--second", "20:00")
    await cli.adminAs("Night-Shift", "maintenance:off")
    await ok("announce", "--title", "Final", "--text", "Tonight")
    const all = (await as("audit:list")).output.split("\n")
    expect(all).toHaveLength(3)
    expect(all[0]).toMatch(
      /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}Z {2}Operator CLI \(ops\) {2}announcement\.set {2}announcement \d+ {2}\{"title":"Final","text":"Tonight"\}$/
    )
    expect(all[1]).toMatch(/Operator CLI \(night-shift\) {2}maintenance\.off {2}site$/)
    expect(all[2]).toMatch(/Operator CLI \(ops\) {2}maintenance\.on {2}site/)

    expect((await as("audit:list", "--actor", "cli:Night-Shift")).output.split("\n")).toEqual([all[1]])
    expect((await as("audit:list", "--action", "maintenance.on")).output.split("\n")).toEqual([all[2]])
    expect((await as("audit:list", "--limit", "1")).output.split("\n")).toEqual([all[0], "(the newest 1; use --limit to see more)"])
    expect((await as("audit:list", "--actor", "nobody@example.com")).output).toBe("No audit entries")

    const bad = await as("audit:list", "--action", "stream.delete")
    expect(bad.code).toBe(2)
    expect(bad.output).toContain("--action must be one of maintenance.on, maintenance.off")
    expect((await as("audit:list", "--limit", "0")).code).toBe(2)
    expect((await as("--help")).output).toContain("audit:list [--actor EMAIL|cli:USER] [--action CODE] [--limit N]")
  })
})

import { writeFile } from "node:fs/promises"
import path from "node:path"
import { describe, expect, it } from "vitest"
import { parseM3u } from "../../../src/server/streams/parseM3u.ts"
import { listStreams } from "../../../src/server/streams/streamsRepo.ts"
import { useAdmin } from "../../support/cliHarness.ts"
import { dialects } from "../../support/dbHarness.ts"

const PLAYLIST = `#EXTM3U
#EXTINF:-1 tvg-id="one" tvg-logo="https://img.example.com/one.png" group-title="Sports, live",Sports One HD
https://cdn.example.com/one/index.m3u8
#EXTINF:-1,News, Weather & More
http://cdn.example.com/news.m3u8
#EXTINF:-1 tvg-logo="not a url",Bad
rtmp://old.example.com/live
`

describe("parseM3u", () => {
  it("reads titles, URLs, logos and guide channels", () => {
    expect(parseM3u(PLAYLIST)).toStrictEqual([
      { title: "Sports One HD", url: "https://cdn.example.com/one/index.m3u8", logo: "https://img.example.com/one.png", epgId: "one" },
      { title: "News, Weather & More", url: "http://cdn.example.com/news.m3u8", logo: undefined, epgId: undefined },
      { title: "Bad", url: "rtmp://old.example.com/live", logo: "not a url", epgId: undefined }
    ])
    expect(parseM3u("https://a.example.com/x.m3u8\r\n")).toStrictEqual([
      { title: "https://a.example.com/x.m3u8", url: "https://a.example.com/x.m3u8", logo: undefined, epgId: undefined }
    ])
  })
})

describe.each(dialects)("stream commands of the operator CLI ($name)", (dialect) => {
  const cli = useAdmin(dialect)

  it("adds, lists, flags, removes and imports streams", async () => {
    expect(
      (
        await cli.admin(
          "stream:add",
          "--title",
          "Arena",
          "--src",
          "https://cdn.example.com/a.m3u8",
          "--src-sldp",
          "/live/demo1/index.m3u8",
          "--image",
          "/posters/demo1.svg",
          "--tags",
          "lls, ?Info ,,airplay",
          "--tags-sldp",
          "lls"
        )
      ).code
    ).toBe(0)
    expect((await cli.admin("stream:add", "--title", "Bad", "--src", "ftp://nope")).code).toBe(2)
    expect((await cli.admin("stream:add", "--title", "Premium Arena")).code).toBe(0)
    const premium = (await listStreams(cli.database.db.kysely)).at(-1)
    expect(premium).toMatchObject({ title: "Premium Arena", src: null, src_sldp: null })
    const listed = (await cli.admin("stream:list")).output
    expect(listed).toContain("(subscribers only)")
    // our own origin's playlists go out signed; another origin's as they are, and the operator is told
    expect(listed).toMatch(/Arena .*tv external, unprotected; ll loop/)
    expect((await cli.admin("stream:remove", "--id", String(premium?.id))).code).toBe(0)
    expect((await cli.admin("stream:add", "--src", "/live/demo1/index.m3u8")).code).toBe(2)
    const [arena] = await listStreams(cli.database.db.kysely)
    expect(arena).toMatchObject({
      title: "Arena",
      src: "https://cdn.example.com/a.m3u8",
      src_sldp: "/live/demo1/index.m3u8",
      image_location: "/posters/demo1.svg",
      tags: "lls,?Info,airplay",
      tags_sldp: "lls",
      maintenance_mode: false
    })
    const id = String(arena?.id)
    expect((await cli.admin("stream:maintenance", "--id", id, "--on")).code).toBe(0)
    expect((await listStreams(cli.database.db.kysely))[0]?.maintenance_mode).toBe(true)
    expect((await cli.admin("stream:maintenance", "--id", id, "--off")).code).toBe(0)
    expect((await listStreams(cli.database.db.kysely))[0]?.maintenance_mode).toBe(false)
    expect((await cli.admin("stream:maintenance", "--id", "99999", "--on")).code).toBe(1)

    const file = path.join(cli.database.dataDir, "playlist.m3u")
    await writeFile(file, PLAYLIST)
    const imported = await cli.admin("stream:import", "--file", file)
    expect(imported.code).toBe(0)
    expect(imported.output).toBe(`Imported 2 streams from ${file}; skipped 1 entry without an http(s) URL`)
    const streams = await listStreams(cli.database.db.kysely)
    expect(streams.map((s) => [s.title, s.src, s.image_location, s.epg_channel_id])).toEqual([
      ["Arena", "https://cdn.example.com/a.m3u8", "/posters/demo1.svg", null],
      ["Sports One HD", "https://cdn.example.com/one/index.m3u8", "https://img.example.com/one.png", "one"],
      ["News, Weather & More", "http://cdn.example.com/news.m3u8", "", null]
    ])
    expect((await cli.admin("stream:import", "--file", path.join(cli.database.dataDir, "missing.m3u"))).code).toBe(1)

    const list = await cli.admin("stream:list")
    expect(list.output).toContain("Sports One HD")
    expect(list.output).not.toContain("plays our origin at")
    expect((await cli.admin("stream:remove", "--id", id)).code).toBe(0)
    expect((await cli.admin("stream:remove", "--id", id)).code).toBe(1)
    expect(await listStreams(cli.database.db.kysely)).toHaveLength(2)
  })

  it("ties a stream to the guide on add and changes only the fields given with stream:set", async () => {
    expect(
      (
        await cli.admin(
          "stream:add",
          "--title",
          "Arena",
          "--src",
          "https://cdn.example.com/a.m3u8",
          "--tags",
          "lls",
          "--epg-id",
          " arena.tv "
        )
      ).code
    ).toBe(0)
    const [arena] = await listStreams(cli.database.db.kysely)
    const id = String(arena?.id)
    expect(arena?.epg_channel_id).toBe("arena.tv")
    expect((await cli.admin("stream:list")).output).toMatch(/epg id\n[- ]+\n.*arena\.tv$/)

    const set = await cli.admin("stream:set", "--id", id, "--epg-id", "arena.hd", "--title", "Arena HD")
    expect(set).toEqual({ code: 0, output: `Stream ${id}: title = "Arena HD", epg_channel_id = "arena.hd"` })
    expect((await listStreams(cli.database.db.kysely))[0]).toMatchObject({
      title: "Arena HD",
      src: "https://cdn.example.com/a.m3u8",
      tags: "lls",
      epg_channel_id: "arena.hd",
      maintenance_mode: false
    })
    expect((await cli.admin("stream:set", "--id", id, "--src-sldp", "/live/demo1/index.m3u8", "--tags", "a, b,")).code).toBe(0)
    expect((await cli.admin("stream:set", "--id", id, "--epg-id", "", "--src", "")).code).toBe(0)
    expect((await listStreams(cli.database.db.kysely))[0]).toMatchObject({
      title: "Arena HD",
      src: null,
      src_sldp: "/live/demo1/index.m3u8",
      tags: "a,b",
      epg_channel_id: null
    })

    for (const args of [
      ["--id", id],
      ["--id", id, "--title", " "],
      ["--id", id, "--src", "ftp://x"],
      ["--title", "No id"],
      ["--id", id, "--nope", "1"]
    ]) {
      expect((await cli.admin("stream:set", ...args)).code, args.join(" ")).toBe(2)
    }
    expect(await cli.admin("stream:set", "--id", "99999", "--title", "Ghost")).toEqual({
      code: 1,
      output: "stream:set: No stream with id 99999"
    })
  })
})

describe.each(dialects)("stream:list and our own origin ($name)", (dialect) => {
  const cli = useAdmin(dialect)

  it("calls a stream on this server's own address ours and signed, saying for whom, and another port's external", async () => {
    // PUBLIC_URL is http://localhost:8080 and the server listens on 127.0.0.1:8080 (the defaults)
    const own = "http://127.0.0.1:8080/live/demo1/index.m3u8"
    expect((await cli.admin("stream:add", "--title", "Loopback", "--src", own, "--src-sldp", own)).code).toBe(0)
    expect((await cli.admin("stream:add", "--title", "Elsewhere", "--src", "http://127.0.0.1:9090/live/demo1/index.m3u8")).code).toBe(0)
    const { output } = await cli.admin("stream:list")
    expect(output).toMatch(/Loopback +http:\/\/127\.0\.0\.1:8080\/live\/demo1\/index\.m3u8 +loop +off/)
    expect(output).toMatch(/Elsewhere +http:\/\/127\.0\.0\.1:9090\/live\/demo1\/index\.m3u8 +external, unprotected +off/)
    expect(output.split("\n").filter((line) => line.startsWith("stream "))).toEqual([
      "stream 1 plays our origin at http://127.0.0.1:8080, not at PUBLIC_URL http://localhost:8080: signed only for viewers " +
        "who open the site at http://127.0.0.1:8080; set it to /live/demo1/index.m3u8 to serve every viewer"
    ])
  })
})

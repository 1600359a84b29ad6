import { describe, expect, it } from "vitest"
import { type GuideProgramme, ProgrammeTimeline } from "../../../src/server/guide/programmeTimeline.ts"
import { readXmltv, XmltvError, type XmltvItem } from "../../../src/server/guide/xmltvReader.ts"

async function* inChunks(text: string, size = 7): AsyncGenerator<string> {
  for (let i = 0; i < text.length; i += size) yield text.slice(i, i + size)
}

const read = async (text: string, size?: number): Promise<Array<XmltvItem>> => {
  const items: Array<XmltvItem> = []
  for await (const batch of readXmltv(inChunks(text, size))) items.push(...batch)
  return items
}

const programmes = async (text: string) => {
  const timeline = new ProgrammeTimeline()
  const kept: Array<GuideProgramme> = []
  for (const item of await read(text)) if (item.kind === "programme") timeline.add(item, (p) => kept.push(p))
  timeline.end((p) => kept.push(p))
  return {
    kept: kept.map((p) => ({ ...p, start: new Date(p.start).toISOString(), stop: new Date(p.stop).toISOString() })),
    skipped: Object.fromEntries(timeline.skipped),
    repaired: Object.fromEntries(timeline.repaired)
  }
}

const tv = (body: string) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE tv SYSTEM "xmltv.dtd">\n<tv generator-info-name="test">\n${body}\n</tv>\n`

describe("readXmltv", () => {
  it("reads channels and programmes, preferring English among several languages, else the first", async () => {
    const items = await read(
      tv(`
      <channel id="sport.no"><display-name lang="nb">Sport</display-name><display-name lang="en-GB">Sports</display-name><icon src="x.png"/></channel>
      <channel id="film.no"><display-name lang="nb">Film</display-name><display-name lang="sv">Filmer</display-name></channel>
      <programme start="20261123180000 +0100" stop="20261123190000 +0100" channel="sport.no">
        <title lang="nb">Fotball</title><title lang="en">Football</title>
        <sub-title lang="de">Spieltag</sub-title><sub-title lang="nb">Kamp</sub-title>
        <desc lang="en">Not <b>kept</b></desc>
      </programme>`)
    )
    expect(items).toEqual([
      { kind: "channel", id: "sport.no", name: "Sports" },
      { kind: "channel", id: "film.no", name: "Film" },
      {
        kind: "programme",
        channel: "sport.no",
        start: "20261123180000 +0100",
        stop: "20261123190000 +0100",
        title: "Football",
        subtitle: "Spieltag"
      }
    ])
  })

  it("decodes entities, character references and CDATA, and tidies white space", async () => {
    const [item] = await read(
      tv(`<programme start="20261123180000" stop="20261123190000" channel="a&amp;b">
      <title>Tom &amp; Jerry &lt;3 &#x2665; &#233;t&#xE9;</title><sub-title><![CDATA[Part <1> & more]]>
        continued</sub-title></programme>`),
      3
    )
    expect(item).toMatchObject({ channel: "a&b", title: "Tom & Jerry <3 ♥ été", subtitle: "Part <1> & more continued" })
  })

  it("reports malformed input with its line and column", async () => {
    const error = await read(tv(`<programme start="1" channel="a">\n<title>Caf&eacute; Society</title></programme>`)).catch(
      (e: unknown) => e
    )
    expect(error).toBeInstanceOf(XmltvError)
    expect(error).toMatchObject({ line: 5, column: 18, reason: "undefined entity." })
    expect((error as XmltvError).message).toBe("line 5, column 18: undefined entity.")
    const mismatched = await read(tv(`<programme start="1" channel="a"><title>x</sub-title></programme>`)).catch((e: unknown) => e)
    expect((mismatched as XmltvError).message).toMatch(/^line 4, column \d+: unexpected close tag/)
  })

  it("reports a truncated file where it ends", async () => {
    const whole = tv(`<programme start="20261123180000" stop="20261123190000" channel="a"><title>One</title></programme>
<programme start="20261123190000" stop="20261123200000" channel="a"><title>Two</title></programme>`)
    const cut = whole.slice(0, whole.indexOf("Two"))
    const error = await read(cut).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(XmltvError)
    expect((error as XmltvError).line).toBe(5)
    expect((error as XmltvError).reason).toMatch(/unclosed tag/)
  })

  it("refuses a document that is not XMLTV, and one that is empty", async () => {
    await expect(read("<html><body>Not found</body></html>")).rejects.toThrow(
      "line 1, column 6: not an XMLTV file: the root element is <html>, not <tv>"
    )
    await expect(read("")).rejects.toThrow(XmltvError)
  })
})

describe("ProgrammeTimeline", () => {
  it("ends a programme without stop where the next one on its channel starts, and gives the last one an hour", async () => {
    const { kept, skipped, repaired } = await programmes(
      tv(`
      <programme start="20261123180000 +0100" channel="a"><title>A1</title></programme>
      <programme start="20261123183000 +0100" channel="b"><title>B1</title></programme>
      <programme start="20261123190000 +0100" channel="a"><title>A2</title></programme>
      <programme start="20261123200000 +0100" stop="20261123210000 +0100" channel="a"><title>A3</title></programme>`)
    )
    expect(kept).toEqual([
      { channel: "a", start: "2026-11-23T17:00:00.000Z", stop: "2026-11-23T18:00:00.000Z", title: "A1", subtitle: "" },
      { channel: "a", start: "2026-11-23T18:00:00.000Z", stop: "2026-11-23T19:00:00.000Z", title: "A2", subtitle: "" },
      { channel: "a", start: "2026-11-23T19:00:00.000Z", stop: "2026-11-23T20:00:00.000Z", title: "A3", subtitle: "" },
      { channel: "b", start: "2026-11-23T17:30:00.000Z", stop: "2026-11-23T18:30:00.000Z", title: "B1", subtitle: "" }
    ])
    expect(skipped).toEqual({})
    expect(repaired).toEqual({ "no stop, ended where the next one starts": 2, "no stop and last of its channel, given 1 hour": 1 })
  })

  it("reads a stop written with its start's date but earlier in the day as the next day", async () => {
    const { kept, skipped, repaired } = await programmes(
      tv(`
      <programme start="20261123222000 +0100" stop="20261123232000 +0100" channel="a"><title>Late news</title></programme>
      <programme start="20261123232000 +0100" stop="20261123010000 +0100" channel="a"><title>Night film</title></programme>
      <programme start="20261124010000 +0100" stop="20261124020000 +0100" channel="a"><title>Early</title></programme>
      <programme start="20261124030000 +0100" stop="20261123020000 +0100" channel="a"><title>Stop a day early</title></programme>`)
    )
    expect(kept.map((p) => `${p.title} ${p.start} ${p.stop}`)).toEqual([
      "Late news 2026-11-23T21:20:00.000Z 2026-11-23T22:20:00.000Z",
      "Night film 2026-11-23T22:20:00.000Z 2026-11-24T00:00:00.000Z",
      "Early 2026-11-24T00:00:00.000Z 2026-11-24T01:00:00.000Z"
    ])
    expect(repaired).toEqual({ "stop before start on the same date, read as the next day": 1 })
    expect(skipped).toEqual({ "ends before it starts": 1 })
  })

  it("skips what cannot be shown, and counts why", async () => {
    const { kept, skipped } = await programmes(
      tv(`
      <programme start="20261123180000" stop="20261123190000" channel=""><title>No channel</title></programme>
      <programme start="soon" stop="20261123190000" channel="a"><title>Bad start</title></programme>
      <programme start="20261123180000" stop="later" channel="a"><title>Bad stop</title></programme>
      <programme start="20261123180000" stop="20261122170000" channel="a"><title>Backwards</title></programme>
      <programme start="20261123180000" stop="20261125180000" channel="a"><title>Two days</title></programme>
      <programme start="20261123180000" stop="20261123190000" channel="a"></programme>
      <programme start="20261123190000" stop="20261123200000" channel="a"><title>Fine</title></programme>`)
    )
    expect(kept.map((p) => p.title)).toEqual(["Fine"])
    expect(skipped).toEqual({ "no channel": 1, "unreadable time": 2, "ends before it starts": 1, "longer than a day": 1, "no title": 1 })
  })
})

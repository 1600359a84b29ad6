import { mkdtemp, rm, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { gzipSync } from "node:zlib"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { describeSource, GuideSourceError, guideText } from "../../../src/server/guide/guideSource.ts"

const XML = `<?xml version="1.0" encoding="UTF-8"?>\n<tv><programme channel="ø"><title>Ærlig talt — “quotes”</title></programme></tv>\n`

const text = async (file: string): Promise<string> => {
  let all = ""
  for await (const chunk of guideText({ file })) all += chunk
  return all
}

describe("guideText", () => {
  let dir = ""
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "guide-source-"))
  })
  afterAll(() => rm(dir, { recursive: true, force: true }))

  it("reads a plain file and a gzip one alike, whatever their names say", async () => {
    await writeFile(join(dir, "plain.xml.gz"), XML)
    await writeFile(join(dir, "packed.xml"), gzipSync(XML))
    expect(await text(join(dir, "plain.xml.gz"))).toBe(XML)
    expect(await text(join(dir, "packed.xml"))).toBe(XML)
  })

  it("decodes the encoding the XML declaration names", async () => {
    const latin = `<?xml version="1.0" encoding="ISO-8859-1"?>\n<tv><channel id="a"><display-name>Tromsø</display-name></channel></tv>`
    await writeFile(join(dir, "latin.xml"), Buffer.from(latin, "latin1"))
    expect(await text(join(dir, "latin.xml"))).toBe(latin)
    await writeFile(join(dir, "odd.xml"), `<?xml version="1.0" encoding="x-nonsense"?><tv/>`)
    await expect(text(join(dir, "odd.xml"))).rejects.toThrow("the file declares an encoding this server cannot read: x-nonsense")
  })

  it("fails on a missing file and a truncated gzip, saying why", async () => {
    await expect(text(join(dir, "missing.xml"))).rejects.toThrow(new GuideSourceError("ENOENT: no such file or directory"))
    const packed = gzipSync(XML.repeat(50))
    await writeFile(join(dir, "cut.xml.gz"), packed.subarray(0, packed.length - 20))
    await expect(text(join(dir, "cut.xml.gz"))).rejects.toThrow(/^gzip: unexpected end of file$/)
  })

  it("names a URL without its query, which may hold credentials", () => {
    expect(describeSource({ url: "https://epg.example.com/xmltv.php?username=ann&password=secret" })).toBe(
      "https://epg.example.com/xmltv.php"
    )
    expect(describeSource({ file: "/srv/guide.xml" })).toBe("/srv/guide.xml")
  })
})

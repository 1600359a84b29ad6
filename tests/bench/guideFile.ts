import { once } from "node:events"
import { createWriteStream } from "node:fs"

export interface GuideFileShape {
  readonly programmes: number
  readonly channels: number
}

const TITLES = [
  "Football",
  "Cup Football",
  "Tennis",
  "Cycling",
  "Motor Racing",
  "Sports Tonight",
  "News &amp; Weather",
  "Wild Coasts",
  "Kitchen Table",
  "Quiz Night"
]
const pad = (n: number, width = 2) => String(n).padStart(width, "0")
/** Epoch ms as XMLTV writes a Central European local time: `20261123180000 +0100`. */
const xmltvTime = (ms: number) => {
  const d = new Date(ms + 60 * 60_000)
  return `${d.getUTCFullYear()}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())}${pad(d.getUTCHours())}${pad(d.getUTCMinutes())}00 +0100`
}

/**
 * Writes an XMLTV file the way providers write them: channels first, then each channel's
 * programmes back to back, with two languages of title, a subtitle, a description, a category
 * and an episode number, entities included. Streamed to disk, so the bench's own memory stays flat.
 */
export async function writeGuideFile(path: string, shape: GuideFileShape): Promise<number> {
  const out = createWriteStream(path)
  let bytes = 0
  const write = async (text: string) => {
    bytes += Buffer.byteLength(text)
    if (!out.write(text)) await once(out, "drain")
  }
  await write(`<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE tv SYSTEM "xmltv.dtd">\n<tv generator-info-name="streamhub-bench">\n`)
  for (let c = 0; c < shape.channels; c += 1) {
    await write(
      `  <channel id="ch${c}.bench.tv">\n    <display-name lang="nb">Kanal ${c}</display-name>\n    <display-name lang="en">Channel ${c}</display-name>\n    <icon src="https://img.example.com/${c}.png" />\n  </channel>\n`
    )
  }
  const perChannel = Math.ceil(shape.programmes / shape.channels)
  const start = Date.UTC(2026, 10, 23)
  let written = 0
  for (let c = 0; c < shape.channels && written < shape.programmes; c += 1) {
    let at = start
    for (let p = 0; p < perChannel && written < shape.programmes; p += 1) {
      const minutes = 30 + ((c * 7 + p * 13) % 4) * 15
      const title = TITLES[(c + p) % TITLES.length] ?? ""
      await write(
        `  <programme start="${xmltvTime(at)}" stop="${xmltvTime(at + minutes * 60_000)}" channel="ch${c}.bench.tv">\n` +
          `    <title lang="nb">${title} (nb)</title>\n    <title lang="en">${title}</title>\n` +
          `    <sub-title lang="en">Episode ${p + 1} &amp; more</sub-title>\n` +
          `    <desc lang="en">Live coverage, analysis &amp; interviews from the ground; highlights of the day's other matches and the table after round ${p % 38}.</desc>\n` +
          `    <category lang="en">Sports</category>\n    <episode-num system="xmltv_ns">0.${p}.</episode-num>\n  </programme>\n`
      )
      at += minutes * 60_000
      written += 1
    }
  }
  await write(`</tv>\n`)
  out.end()
  await once(out, "finish")
  return bytes
}

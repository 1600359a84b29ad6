/**
 * One measured run in a process of its own, so its memory figures are its own: `--mode import`
 * imports the file into a fresh database as `guide:import --file` does; `--mode saxes` is the
 * baseline, the same file read and decoded the same way through a saxes parser with no handlers.
 * Prints one line of JSON.
 */
import { createReadStream } from "node:fs"
import { parseArgs } from "node:util"
import { SaxesParser } from "saxes"
import { openDatabase } from "../../src/server/db/database.ts"
import { migrateToLatest } from "../../src/server/db/migrations.ts"
import { guideText } from "../../src/server/guide/guideSource.ts"
import { importGuide } from "../../src/server/guide/importGuide.ts"

const { values } = parseArgs({
  options: { mode: { type: "string" }, file: { type: "string" }, "data-dir": { type: "string" }, "database-url": { type: "string" } }
})
const file = values.file ?? ""
const db =
  values.mode === "import" ? await openDatabase({ dataDir: values["data-dir"] ?? "", databaseUrl: values["database-url"] }) : undefined
if (db !== undefined) await migrateToLatest(db)

const MB = 1024 * 1024
const before = process.memoryUsage()
let peakRss = before.rss
let peakHeap = before.heapUsed
const sample = () => {
  const now = process.memoryUsage()
  peakRss = Math.max(peakRss, now.rss)
  peakHeap = Math.max(peakHeap, now.heapUsed)
}
const sampler = setInterval(sample, 10)

const started = performance.now()
let programmes = 0
if (db === undefined) {
  const parser = new SaxesParser({ xmlns: false, position: true })
  const decoder = new TextDecoder("utf-8")
  for await (const chunk of createReadStream(file, { highWaterMark: 64 * 1024 })) {
    parser.write(decoder.decode(chunk as Buffer, { stream: true }))
    sample()
  }
  parser.close()
} else {
  const result = await importGuide(db.kysely, guideText({ file }), { now: Date.now(), onProgress: sample })
  programmes = result.programmes
}
const ms = performance.now() - started
sample()
clearInterval(sampler)
await db?.close()
console.log(JSON.stringify({ ms, programmes, rssGrowthMb: (peakRss - before.rss) / MB, heapGrowthMb: (peakHeap - before.heapUsed) / MB }))

import { readFile } from "node:fs/promises"
import { audit } from "../audit/auditFeature.ts"
import { type Command, CommandFailure, isLocation, plural, requireText } from "../cli/command.ts"
import { feeds } from "../feeds/feedsFeature.ts"
import { parseM3u } from "./parseM3u.ts"
import { mapInBatches, probeOrNull } from "./relayCommands.ts"
import { insertStream, updateStream } from "./streamsRepo.ts"

export const streamImport: Command = {
  name: "stream:import",
  usage: "--file playlist.m3u [--relay]",
  summary:
    "Add every entry of an M3U playlist (#EXTINF title, tvg-logo as image, tvg-id as the guide's channel); " +
    "with --relay each entry is relayed through our own origin, and an entry whose address does not answer with a playlist is skipped with its reason",
  options: { file: { type: "string" }, relay: { type: "boolean" } },
  async run(args, { db, out, err, now, operator }) {
    const file = requireText(args, "file")
    const text = await readFile(file, "utf8").catch((error: NodeJS.ErrnoException) => {
      throw new CommandFailure(`Cannot read ${file}: ${error.code ?? error.message}`)
    })
    const entries = parseM3u(text)
    const usable = entries.filter((entry) => isLocation(entry.url))
    if (usable.length === 0) throw new CommandFailure(`No stream URLs found in ${file}`)
    const relay = args.relay === true
    const refused: Array<string> = []
    // each upstream asked once, a few at a time
    const probed = relay ? await mapInBatches(usable, 4, (entry) => probeOrNull(entry.url, refused)) : usable.map(() => true)
    const ms = now()
    const at = new Date(ms).toISOString()
    let added = 0
    for (const [index, entry] of usable.entries()) {
      if (probed[index] === false) continue
      await db.transaction().execute(async (trx) => {
        const stream = await insertStream(trx, {
          title: entry.title,
          src: relay ? null : entry.url,
          image_location: entry.logo !== undefined && isLocation(entry.logo) ? entry.logo : "",
          epg_channel_id: entry.epgId ?? null,
          created_at: at
        })
        const from = relay ? `relay of ${audit.withoutSecrets(entry.url)}` : `plays ${audit.withoutSecrets(entry.url)}`
        await audit.record(
          trx,
          audit.operator(operator),
          { action: "stream.import", target: `stream ${stream.id}`, detail: `${JSON.stringify(entry.title)}, ${from}, from ${file}` },
          ms
        )
        if (!relay) return
        const ours = feeds.playlistOf(stream.id)
        await updateStream(trx, stream.id, { src: ours, src_sldp: ours })
        await feeds.save(trx, { streamId: stream.id, upstreamUrl: entry.url, headers: [], alwaysOn: false, at })
      })
      added += 1
    }
    for (const line of refused) err(`skipped: ${line}`)
    const skipped = entries.length - usable.length
    out(
      `Imported ${plural(added, "stream")} from ${file}${relay ? " as relays" : ""}` +
        `${skipped > 0 ? `; skipped ${plural(skipped, "entry", "entries")} without an http(s) URL` : ""}` +
        `${refused.length > 0 ? `; skipped ${plural(refused.length, "entry", "entries")} whose upstream was refused` : ""}`
    )
    return added > 0 || usable.length === 0 ? 0 : 1
  }
}

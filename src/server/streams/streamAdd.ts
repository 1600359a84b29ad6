import { audit } from "../audit/auditFeature.ts"
import { type Command, normaliseTags, optionalText, plural, requireLocation, requireText, UsageError } from "../cli/command.ts"
import { feeds } from "../feeds/feedsFeature.ts"
import { newIngest, probedPull, probedRelay, pushNote, RELAY_OPTIONS } from "./relayCommands.ts"
import { epgId, STREAM_OPTIONS } from "./streamOptions.ts"
import { insertStream, updateStream } from "./streamsRepo.ts"

export const streamAdd: Command = {
  name: "stream:add",
  usage:
    "--title T [--src URL] [--src-sldp URL] [--relay URL [--header 'Name: value' …] [--always-on]] [--pull URL [--always-on]] [--ingest] " +
    "[--image URL] [--tags a,b] [--tags-sldp a,b] [--epg-id X]",
  summary:
    "Add a stream at the end of the grid; without --src it is for subscribers only (viewers are offered a subscription); " +
    "--relay serves an upstream HLS or LL-HLS playlist through our own origin (its address and headers never reach a browser); " +
    "--pull has ffmpeg read anything it can (MPEG-TS over HTTP, RTSP, UDP, …) without re-encoding, packaged by us as LL-HLS; " +
    "--ingest makes a channel an encoder (OBS, ffmpeg, a hardware box) pushes to over RTMP or SRT with a secret key, printed once; " +
    "--epg-id ties it to that XMLTV channel of the guide",
  options: { ...STREAM_OPTIONS, ...RELAY_OPTIONS, pull: { type: "string" }, ingest: { type: "boolean" } },
  async run(args, { db, out, now, config, operator }) {
    const title = requireText(args, "title").trim()
    const relayUrl = args.relay === undefined ? undefined : requireText(args, "relay").trim()
    const pullUrl = args.pull === undefined ? undefined : requireText(args, "pull").trim()
    const ingest = args.ingest === true
    if ([relayUrl, pullUrl, ingest ? true : undefined, args.src ?? args["src-sldp"]].filter((given) => given !== undefined).length > 1) {
      throw new UsageError(
        "give one of --relay, --pull, --ingest or --src/--src-sldp: a relayed, pulled or ingested stream plays from our own origin"
      )
    }
    if (ingest && args["always-on"] !== undefined)
      throw new UsageError("an ingest channel is live while its encoder publishes: --always-on does not go with --ingest")
    if (relayUrl === undefined && args.header !== undefined) throw new UsageError("--header goes with --relay")
    if (relayUrl === undefined && pullUrl === undefined && args["always-on"] !== undefined) {
      throw new UsageError("--always-on goes with --relay or --pull")
    }
    const src = args.src === undefined ? null : requireLocation(args, "src")
    const srcSldp = args["src-sldp"] === undefined ? null : requireLocation(args, "src-sldp")
    const image = args.image === undefined ? "" : requireLocation(args, "image")
    const feed =
      relayUrl !== undefined
        ? { kind: "relay" as const, url: relayUrl, ...(await probedRelay(relayUrl, args)) }
        : pullUrl !== undefined
          ? { kind: "pull" as const, url: pullUrl, headers: [], ...(await probedPull(pullUrl)) }
          : ingest
            ? { kind: "ingest" as const, ...(await newIngest(config)) }
            : undefined
    const ms = now()
    const at = new Date(ms).toISOString()
    const stream = await db.transaction().execute(async (trx) => {
      const added = await insertStream(trx, {
        title,
        src,
        src_sldp: srcSldp,
        image_location: image,
        tags: normaliseTags(optionalText(args, "tags")),
        tags_sldp: normaliseTags(optionalText(args, "tags-sldp")),
        epg_channel_id: epgId(args),
        created_at: at
      })
      // the upstream without credentials; an ingest channel's key never
      const from =
        feed === undefined
          ? src === null && srcSldp === null
            ? "subscribers only"
            : `plays ${audit.withoutSecrets(src ?? srcSldp ?? "")}`
          : feed.kind === "ingest"
            ? "ingest"
            : `${feed.kind} of ${audit.withoutSecrets(feed.url)}${feed.headers.length > 0 ? ` with ${plural(feed.headers.length, "header")}` : ""}`
      await audit.record(
        trx,
        audit.operator(operator),
        { action: "stream.add", target: `stream ${added.id}`, detail: `${JSON.stringify(title)}, ${from}` },
        ms
      )
      if (feed === undefined) return added
      const ours = feeds.playlistOf(added.id, feed.kind)
      await updateStream(trx, added.id, { src: ours, src_sldp: ours })
      await feeds.save(trx, {
        kind: feed.kind,
        streamId: added.id,
        upstreamUrl: feed.url,
        headers: feed.headers,
        alwaysOn: args["always-on"] === true,
        at
      })
      return { ...added, src: ours, src_sldp: ours }
    })
    const note =
      feed !== undefined
        ? ` (${feed.kind === "relay" ? "relay of " : ""}${feed.description}${feed.kind === "ingest" ? "" : args["always-on"] === true ? ", always on" : ", on demand"}; players open ${stream.src})`
        : stream.src === null && stream.src_sldp === null
          ? " (subscribers only: no source yet)"
          : ""
    out(`Added stream ${stream.id}: ${stream.title}${note}`)
    if (feed?.kind === "ingest") out(pushNote(stream.id, feed.key, config))
    return 0
  }
}

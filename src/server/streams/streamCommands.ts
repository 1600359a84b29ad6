import { readFile } from "node:fs/promises"
import { audit } from "../audit/auditFeature.ts"
import {
  type Args,
  type Command,
  CommandFailure,
  isLocation,
  normaliseTags,
  optionalText,
  plural,
  requireId,
  requireLocation,
  requireText,
  table,
  UsageError
} from "../cli/command.ts"
import type { Config } from "../config.ts"
import { connections } from "../connections/connectionsFeature.ts"
import { feeds } from "../feeds/feedsFeature.ts"
import { parseM3u } from "./parseM3u.ts"
import { mapInBatches, mustHaveFound, newIngest, probedPull, probedRelay, probeOrNull, pushNote, RELAY_OPTIONS } from "./relayCommands.ts"
import { deleteStream, insertStream, listStreams, type StreamChanges, setStreamMaintenance, updateStream } from "./streamsRepo.ts"

/** What a stream is made of, as stream:add takes it and stream:set changes it. */
const STREAM_OPTIONS = {
  title: { type: "string" },
  src: { type: "string" },
  "src-sldp": { type: "string" },
  image: { type: "string" },
  tags: { type: "string" },
  "tags-sldp": { type: "string" },
  "epg-id": { type: "string" }
} as const

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

export const streamList: Command = {
  name: "stream:list",
  usage: "",
  summary: "List streams in display order, with where each plays from (loop, relay, external) and its feed's state",
  options: {},
  async run(_args, { db, out, config, now }) {
    const streams = await listStreams(db)
    if (streams.length === 0) {
      out("No streams")
      return 0
    }
    const listed = await feeds.list(db, now())
    // Our own origin's playlists open only with a signed grant; other origins get the address as it is.
    // The signer takes an address at PUBLIC_URL, or at the name a viewer reached us by: one written
    // with this server's own address (127.0.0.1:8080 beside PUBLIC_URL localhost:8080) is ours and
    // signed too, yet only for viewers who open the site at that address.
    const notes = new Set<string>()
    const of = (stream: number, src: string | null): string | undefined => {
      if (src === null) return undefined
      if (connections.isOwnOrigin(src, config.publicUrl)) return "loop"
      const origin = ownAddresses(config).find((address) => connections.isOwnOrigin(src, address))
      if (origin === undefined) return "external, unprotected"
      notes.add(
        `stream ${stream} plays our origin at ${origin}, not at PUBLIC_URL ${config.publicUrl}: signed only for viewers ` +
          `who open the site at ${origin}; set it to ${new URL(src).pathname} to serve every viewer`
      )
      return "loop"
    }
    const kind = (s: (typeof streams)[number]): string => {
      const feed = listed.get(s.id)
      if (feed !== undefined) return `${feed.kind}${feed.alwaysOn ? " (always on)" : ""}`
      const [tv, ll] = [of(s.id, s.src), of(s.id, s.src_sldp)]
      if (tv === ll || ll === undefined) return tv ?? "-"
      return tv === undefined ? `ll ${ll}` : `tv ${tv}; ll ${ll}`
    }
    out(
      table(
        ["id", "title", "src", "kind", "feed", "maintenance", "tags", "epg id"],
        streams.map((s) => [
          String(s.id),
          s.title,
          s.src ?? "(subscribers only)",
          kind(s),
          listed.get(s.id)?.state ?? "",
          s.maintenance_mode ? "ON" : "off",
          s.tags,
          s.epg_channel_id ?? ""
        ])
      )
    )
    for (const note of notes) out(note)
    const relayed = streams.filter((s) => listed.has(s.id))
    for (const s of relayed) {
      const feed = listed.get(s.id)
      if (feed === undefined) continue
      if (feed.kind === "pull") out(`stream ${s.id} pulls ${feed.upstreamUrl} through ffmpeg`)
      else if (feed.kind === "ingest")
        out(`stream ${s.id} takes an encoder's push at ${feeds.pushAddresses(config.ingest, "<key>").join(" or ")}`)
      else out(`stream ${s.id} relays ${feed.upstreamUrl}${feed.headers > 0 ? ` with ${plural(feed.headers, "header")}` : ""}`)
    }
    return 0
  }
}

// What a listening address of any interface means, and the names of this machine's loopback.
const WILDCARD_HOSTS = new Set(["0.0.0.0", "::", "[::]"])
const LOOPBACK_HOSTS = ["127.0.0.1", "localhost", "[::1]"]

/**
 * Where this server answers besides PUBLIC_URL: the address it listens on and, when that takes
 * this machine's loopback, the loopback's names (the origins a viewer on this machine may use).
 */
function ownAddresses(config: Config): Array<string> {
  const host = config.host.includes(":") && !config.host.startsWith("[") ? `[${config.host}]` : config.host
  const loopback = WILDCARD_HOSTS.has(host) || LOOPBACK_HOSTS.includes(host) || host.startsWith("127.")
  const hosts = new Set([...(WILDCARD_HOSTS.has(host) ? [] : [host]), ...(loopback ? LOOPBACK_HOSTS : [])])
  return [...hosts].map((name) => `http://${name}:${config.port}`)
}

export const streamRemove: Command = {
  name: "stream:remove",
  usage: "--id N",
  summary: "Remove a stream",
  options: { id: { type: "string" } },
  async run(args, { db, out, now, operator }) {
    const id = requireId(args)
    await db.transaction().execute(async (trx) => {
      mustHaveFound(await deleteStream(trx, id), id)
      await audit.record(trx, audit.operator(operator), { action: "stream.remove", target: `stream ${id}` }, now())
    })
    out(`Removed stream ${id}`)
    return 0
  }
}

export const streamMaintenance: Command = {
  name: "stream:maintenance",
  usage: "--id N --on|--off",
  summary: "Mark a stream as under maintenance, or clear the mark",
  options: { id: { type: "string" }, on: { type: "boolean" }, off: { type: "boolean" } },
  async run(args, { db, out, now, operator }) {
    const id = requireId(args)
    if ((args.on === true) === (args.off === true)) throw new UsageError("give exactly one of --on or --off")
    const on = args.on === true
    await db.transaction().execute(async (trx) => {
      mustHaveFound(await setStreamMaintenance(trx, id, on), id)
      await audit.record(
        trx,
        audit.operator(operator),
        { action: "stream.maintenance", target: `stream ${id}`, detail: on ? "on" : "off" },
        now()
      )
    })
    out(`Stream ${id} maintenance is ${on ? "ON" : "OFF"}`)
    return 0
  }
}

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

/** `--epg-id`: absent or "" is no guide channel. */
function epgId(args: Args): string | null {
  const value = optionalText(args, "epg-id")?.trim()
  return value === undefined || value === "" ? null : value
}

/** A source given as "" clears it: the stream becomes subscribers-only for that player. */
const optionalLocation = (args: Args, name: string): string | null => (args[name] === "" ? null : requireLocation(args, name))

export const streamSet: Command = {
  name: "stream:set",
  usage: "--id N [--title T] [--src URL] [--src-sldp URL] [--image URL] [--tags a,b] [--tags-sldp a,b] [--epg-id X]",
  summary: 'Change a stream: only the options given change; "" clears one (--epg-id "" unties it from the guide)',
  options: { id: { type: "string" }, ...STREAM_OPTIONS },
  async run(args, { db, out, now, operator }) {
    const id = requireId(args)
    const changes: StreamChanges = {
      ...(args.title === undefined ? {} : { title: requireText(args, "title").trim() }),
      ...(args.src === undefined ? {} : { src: optionalLocation(args, "src") }),
      ...(args["src-sldp"] === undefined ? {} : { src_sldp: optionalLocation(args, "src-sldp") }),
      ...(args.image === undefined ? {} : { image_location: optionalLocation(args, "image") ?? "" }),
      ...(args.tags === undefined ? {} : { tags: normaliseTags(optionalText(args, "tags")) }),
      ...(args["tags-sldp"] === undefined ? {} : { tags_sldp: normaliseTags(optionalText(args, "tags-sldp")) }),
      ...(args["epg-id"] === undefined ? {} : { epg_channel_id: epgId(args) })
    }
    const names = Object.keys(changes)
    if (names.length === 0) throw new UsageError("give at least one field to change")
    const said = (name: string): string => `${name} = ${JSON.stringify(changes[name as keyof StreamChanges])}`
    const logged = (name: string): string => {
      const value = changes[name as keyof StreamChanges]
      return `${name} = ${JSON.stringify(typeof value === "string" ? audit.withoutSecrets(value) : value)}`
    }
    await db.transaction().execute(async (trx) => {
      mustHaveFound(await updateStream(trx, id, changes), id)
      await audit.record(
        trx,
        audit.operator(operator),
        { action: "stream.set", target: `stream ${id}`, detail: names.map(logged).join(", ") },
        now()
      )
    })
    out(`Stream ${id}: ${names.map(said).join(", ")}`)
    return 0
  }
}

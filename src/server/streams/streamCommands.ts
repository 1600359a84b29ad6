import { readFile } from "node:fs/promises"
import {
  type Args,
  type Command,
  CommandFailure,
  isLocation,
  normaliseTags,
  optionalText,
  requireId,
  requireLocation,
  requireText,
  table,
  UsageError
} from "../cli/command.ts"
import { connections } from "../connections/connectionsFeature.ts"
import { parseM3u } from "./parseM3u.ts"
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
  usage: "--title T [--src URL] [--src-sldp URL] [--image URL] [--tags a,b] [--tags-sldp a,b] [--epg-id X]",
  summary:
    "Add a stream at the end of the grid; without --src it is for subscribers only (viewers are offered a subscription); " +
    "--epg-id ties it to that XMLTV channel of the guide",
  options: STREAM_OPTIONS,
  async run(args, { db, out, now }) {
    const title = requireText(args, "title").trim()
    const src = args.src === undefined ? null : requireLocation(args, "src")
    const srcSldp = args["src-sldp"] === undefined ? null : requireLocation(args, "src-sldp")
    const image = args.image === undefined ? "" : requireLocation(args, "image")
    const stream = await insertStream(db, {
      title,
      src,
      src_sldp: srcSldp,
      image_location: image,
      tags: normaliseTags(optionalText(args, "tags")),
      tags_sldp: normaliseTags(optionalText(args, "tags-sldp")),
      epg_channel_id: epgId(args),
      created_at: new Date(now()).toISOString()
    })
    out(
      `Added stream ${stream.id}: ${stream.title}${stream.src === null && stream.src_sldp === null ? " (subscribers only: no source yet)" : ""}`
    )
    return 0
  }
}

export const streamList: Command = {
  name: "stream:list",
  usage: "",
  summary: "List streams in display order",
  options: {},
  async run(_args, { db, out, config }) {
    const streams = await listStreams(db)
    if (streams.length === 0) {
      out("No streams")
      return 0
    }
    // Our own origin's playlists open only with a signed grant; other origins get the address as it is.
    const kind = (src: string): string => (connections.isOwnOrigin(src, config.publicUrl) ? "signed" : "external, unsigned")
    const delivery = (tv: string | null, lowLatency: string | null): string =>
      [tv === null ? "" : `tv ${kind(tv)}`, lowLatency === null ? "" : `ll ${kind(lowLatency)}`].filter(Boolean).join("; ") || "-"
    out(
      table(
        ["id", "title", "src", "delivery", "maintenance", "tags", "epg id"],
        streams.map((s) => [
          String(s.id),
          s.title,
          s.src ?? "(subscribers only)",
          delivery(s.src, s.src_sldp),
          s.maintenance_mode ? "ON" : "off",
          s.tags,
          s.epg_channel_id ?? ""
        ])
      )
    )
    return 0
  }
}

/** A change to a stream that touched no row: there is no stream of that id. */
const mustHaveFound = (found: boolean, id: number): void => {
  if (!found) throw new CommandFailure(`No stream with id ${id}`)
}

export const streamRemove: Command = {
  name: "stream:remove",
  usage: "--id N",
  summary: "Remove a stream",
  options: { id: { type: "string" } },
  async run(args, { db, out }) {
    const id = requireId(args)
    mustHaveFound(await deleteStream(db, id), id)
    out(`Removed stream ${id}`)
    return 0
  }
}

export const streamMaintenance: Command = {
  name: "stream:maintenance",
  usage: "--id N --on|--off",
  summary: "Mark a stream as under maintenance, or clear the mark",
  options: { id: { type: "string" }, on: { type: "boolean" }, off: { type: "boolean" } },
  async run(args, { db, out }) {
    const id = requireId(args)
    if ((args.on === true) === (args.off === true)) throw new UsageError("give exactly one of --on or --off")
    const on = args.on === true
    mustHaveFound(await setStreamMaintenance(db, id, on), id)
    out(`Stream ${id} maintenance is ${on ? "ON" : "OFF"}`)
    return 0
  }
}

export const streamImport: Command = {
  name: "stream:import",
  usage: "--file playlist.m3u",
  summary: "Add every entry of an M3U playlist (#EXTINF title, tvg-logo as image, tvg-id as the guide's channel)",
  options: { file: { type: "string" } },
  async run(args, { db, out, now }) {
    const file = requireText(args, "file")
    const text = await readFile(file, "utf8").catch((error: NodeJS.ErrnoException) => {
      throw new CommandFailure(`Cannot read ${file}: ${error.code ?? error.message}`)
    })
    const entries = parseM3u(text)
    const usable = entries.filter((entry) => isLocation(entry.url))
    if (usable.length === 0) throw new CommandFailure(`No stream URLs found in ${file}`)
    const at = new Date(now()).toISOString()
    for (const entry of usable) {
      await insertStream(db, {
        title: entry.title,
        src: entry.url,
        image_location: entry.logo !== undefined && isLocation(entry.logo) ? entry.logo : "",
        epg_channel_id: entry.epgId ?? null,
        created_at: at
      })
    }
    const skipped = entries.length - usable.length
    out(`Imported ${usable.length} stream(s) from ${file}${skipped > 0 ? `; skipped ${skipped} entry(ies) without an http(s) URL` : ""}`)
    return 0
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
  async run(args, { db, out }) {
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
    mustHaveFound(await updateStream(db, id, changes), id)
    out(`Stream ${id}: ${names.map((name) => `${name} = ${JSON.stringify(changes[name as keyof StreamChanges])}`).join(", ")}`)
    return 0
  }
}

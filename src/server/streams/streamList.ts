import { type Command, plural, table } from "../cli/command.ts"
import type { Config } from "../config.ts"
import { connections } from "../connections/connectionsFeature.ts"
import { feeds } from "../feeds/feedsFeature.ts"
import { listStreams } from "./streamsRepo.ts"

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

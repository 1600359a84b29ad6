import { audit } from "../audit/auditFeature.ts"
import { type Args, type Command, CommandFailure, plural, requireId, requireText, UsageError } from "../cli/command.ts"
import type { Config } from "../config.ts"
import { feeds } from "../feeds/feedsFeature.ts"
import { mustHaveFound } from "./streamOptions.ts"
import { listStreams, updateStream } from "./streamsRepo.ts"

/** How a relay is told apart: where it comes from, what to send with each request, and whether it runs with nobody watching. */
export const RELAY_OPTIONS = {
  relay: { type: "string" },
  header: { type: "string", multiple: true },
  "always-on": { type: "boolean" }
} as const

const headerTexts = (args: Args): ReadonlyArray<string> => {
  const value = args.header
  return Array.isArray(value) ? value : typeof value === "string" ? [value] : []
}

/** The upstream asked for once, so a bad, unreachable or non-playlist address is refused with its reason. */
export const probedRelay = async (
  url: string,
  args: Args
): Promise<{ headers: ReturnType<typeof feeds.readHeaders>; description: string }> => {
  try {
    const headers = feeds.readHeaders(headerTexts(args))
    const { description } = await feeds.probe(url, headers)
    return { headers, description }
  } catch (error) {
    if (error instanceof feeds.Refused) throw new CommandFailure(error.message)
    throw error
  }
}

/** The source asked what it carries, so a bad address, a silent source or a missing ffmpeg is refused with its reason. */
export const probedPull = async (url: string): Promise<{ description: string }> => {
  try {
    return await feeds.probePull(url)
  } catch (error) {
    if (error instanceof feeds.Refused) throw new CommandFailure(error.message)
    throw error
  }
}

/** A new ingest channel's key and what it is kept as; refused when ffmpeg is missing or no push port is open. */
export const newIngest = async (config: Config): Promise<{ key: string; url: string; headers: []; description: string }> => {
  if (config.ingest.rtmpPort === null && config.ingest.srtPort === null)
    throw new CommandFailure("RTMP_PORT and SRT_PORT are both off: an encoder could not push to an ingest channel")
  try {
    await feeds.ffmpegVersion()
  } catch (error) {
    if (error instanceof feeds.Refused) throw new CommandFailure(`${error.message}: ingest channels need it`)
    throw error
  }
  const key = feeds.newIngestKey()
  return { key, url: feeds.storedIngestKey(key), headers: [], description: "ingest, live while its encoder publishes" }
}

/** Where the encoder pushes, with the key, which is shown this once. */
export const pushNote = (id: number, key: string, config: Config): string =>
  [
    "Push to (the key is shown only now; stream:key --id N --rotate replaces it):",
    ...feeds.pushAddresses(config.ingest, key).map((address) => `  ${address}`),
    `Encoder: H.264 video with a keyframe every 1–2 s and AAC audio give stream ${id} the lowest latency.`
  ].join("\n")

export const streamKey: Command = {
  name: "stream:key",
  usage: "--id N --rotate",
  summary:
    "Replace an ingest channel's key (kept only as a hash, so it cannot be shown again): prints the new push addresses; " +
    "the encoder connected with the old key is disconnected",
  options: { id: { type: "string" }, rotate: { type: "boolean" } },
  async run(args, { db, out, config, now, operator }) {
    const id = requireId(args)
    if (args.rotate !== true) throw new UsageError("keys are kept only as hashes: give --rotate to make a new one")
    const feed = (await feeds.list(db, now())).get(id)
    if (feed === undefined || feed.kind !== "ingest") {
      const stream = (await listStreams(db)).find((row) => row.id === id)
      mustHaveFound(stream !== undefined, id)
      throw new CommandFailure(`stream ${id} is not an ingest channel (add one with stream:add --title T --ingest)`)
    }
    const key = feeds.newIngestKey()
    const at = now()
    await db.transaction().execute(async (trx) => {
      await feeds.save(trx, {
        kind: "ingest",
        streamId: id,
        upstreamUrl: feeds.storedIngestKey(key),
        headers: [],
        alwaysOn: false,
        at: new Date(at).toISOString()
      })
      // that the key changed, never the key
      await audit.record(
        trx,
        audit.operator(operator),
        { action: "stream.key.rotate", target: `stream ${id}`, detail: "new ingest key" },
        at
      )
    })
    out(`Stream ${id} has a new key; the old one no longer works.`)
    out(pushNote(id, key, config))
    return 0
  }
}

export const streamRelay: Command = {
  name: "stream:relay",
  usage: "--id N [--relay URL] [--header 'Name: value' …] [--always-on | --on-demand]",
  summary:
    "Serve a stream through our own origin as a relay of its upstream: of --relay, or of the external address it plays today; " +
    "run again to change its upstream, headers or --always-on",
  options: { id: { type: "string" }, ...RELAY_OPTIONS, "on-demand": { type: "boolean" } },
  async run(args, { db, out, now, operator }) {
    const id = requireId(args)
    if (args["always-on"] === true && args["on-demand"] === true) throw new UsageError("give --always-on or --on-demand, not both")
    const stream = (await listStreams(db)).find((row) => row.id === id)
    mustHaveFound(stream !== undefined, id)
    const known = (await feeds.list(db, now())).get(id)
    const upstreamUrl =
      args.relay !== undefined
        ? requireText(args, "relay").trim()
        : (known?.upstreamUrl ?? [stream?.src, stream?.src_sldp].find((src) => src != null && /^https?:\/\//i.test(src)))
    if (upstreamUrl === undefined || upstreamUrl === null) {
      throw new UsageError(`stream ${id} plays no external address to relay: give --relay URL`)
    }
    const relay = await probedRelay(upstreamUrl, args)
    const alwaysOn = args["always-on"] === true ? true : args["on-demand"] === true ? false : (known?.alwaysOn ?? false)
    const ours = feeds.playlistOf(id)
    const ms = now()
    const at = new Date(ms).toISOString()
    await db.transaction().execute(async (trx) => {
      await updateStream(trx, id, { src: ours, src_sldp: ours })
      await feeds.save(trx, { streamId: id, upstreamUrl, headers: relay.headers, alwaysOn, at })
      await audit.record(
        trx,
        audit.operator(operator),
        {
          action: "stream.relay",
          target: `stream ${id}`,
          detail:
            `relay of ${audit.withoutSecrets(upstreamUrl)}` +
            `${relay.headers.length > 0 ? ` with ${plural(relay.headers.length, "header")}` : ""}, ${alwaysOn ? "always on" : "on demand"}`
        },
        ms
      )
    })
    out(`Stream ${id} is a relay of ${relay.description}${alwaysOn ? ", always on" : ", on demand"}; players open ${ours}`)
    return 0
  }
}

export const probeOrNull = async (url: string, refused: Array<string>): Promise<boolean> => {
  try {
    await feeds.probe(url, [])
    return true
  } catch (error) {
    if (!(error instanceof feeds.Refused)) throw error
    refused.push(error.message)
    return false
  }
}

export async function mapInBatches<T, R>(items: ReadonlyArray<T>, size: number, map: (item: T) => Promise<R>): Promise<Array<R>> {
  const results: Array<R> = []
  for (let start = 0; start < items.length; start += size) results.push(...(await Promise.all(items.slice(start, start + size).map(map))))
  return results
}

/**
 * The two ports every ingest channel is pushed to, RTMP and SRT: open while there is an ingest
 * channel, each publisher's key checked against the channels' before anything it sends is taken.
 */
import type { Config } from "../config.ts"
import { type IngestGate, looksLikeIngestKey, type PublishDecision, storedIngestKey } from "./ingestFeed.ts"
import type { RelayFeeds } from "./relayFeeds.ts"
import { ffmpegVersion } from "./relaySetup.ts"
import { type RtmpServer, startRtmpServer } from "./rtmpServer.ts"
import { type SrtServer, startSrtServer } from "./srtServer.ts"

export type IngestSettings = Config["ingest"]

/** The addresses an operator gives the encoder of a channel with `key`. */
export function pushAddresses(settings: IngestSettings, key: string): Array<string> {
  const host = settings.publicHost.includes(":") ? `[${settings.publicHost}]` : settings.publicHost
  return [
    ...(settings.rtmpPort === null ? [] : [`rtmp://${host}:${settings.rtmpPort}/live/${key}`]),
    ...(settings.srtPort === null ? [] : [`srt://${host}:${settings.srtPort}?streamid=${key}`])
  ]
}

export interface IngestListeners {
  /** Opens the ports when there are ingest channels, closes them when there are none. */
  want(open: boolean): void
  /** The ports listened on now. */
  ports(): { readonly rtmp: number | undefined; readonly srt: number | undefined }
  stop(): Promise<void>
}

// a port that could not be opened (taken by another program) is tried again this often
const RETRY_MS = 30_000

export function createIngestListeners(options: {
  readonly settings: IngestSettings
  readonly feeds: () => RelayFeeds
  readonly log: (level: "info" | "warn" | "error", message: string) => void
}): IngestListeners {
  const { settings, log } = options
  let rtmp: Promise<RtmpServer | undefined> | undefined
  let srt: Promise<SrtServer | undefined> | undefined
  let open = { rtmp: undefined as number | undefined, srt: undefined as number | undefined }
  let failedAt = Number.NEGATIVE_INFINITY
  const failed = new Set<string>()
  let stopped = false

  // whether ffmpeg runs here, asked again now and then: without it no publisher is taken
  let ffmpeg: { readonly at: number; readonly answer: Promise<string | undefined> } | undefined
  const ffmpegMissing = (): Promise<string | undefined> => {
    if (ffmpeg === undefined || performance.now() - ffmpeg.at > RETRY_MS)
      ffmpeg = {
        at: performance.now(),
        answer: ffmpegVersion().then(
          () => undefined,
          (error: Error) => error.message
        )
      }
    return ffmpeg.answer
  }

  const gate: IngestGate = async (key, publisher): Promise<PublishDecision> => {
    if (!looksLikeIngestKey(key)) return { accepted: false, reason: "badKey", description: "no channel has this key" }
    const missing = await ffmpegMissing()
    if (missing !== undefined) return { accepted: false, reason: "unavailable", description: missing }
    const answer = await options.feeds().publish(storedIngestKey(key), publisher)
    if (answer.kind === "unknown")
      return { accepted: false, reason: "badKey", description: "no channel has this key (it may have been replaced)" }
    if (answer.kind === "busy")
      return {
        accepted: false,
        reason: "busy",
        description: `channel ${answer.channel} already has a publisher${answer.elsewhere ? " (at another instance)" : ""}`
      }
    log("info", `${publisher.protocol.toLowerCase()} ${publisher.address}: publishes channel ${answer.channel}`)
    return { accepted: true, ended: answer.ended }
  }
  const serverLog = (level: "info" | "warn", message: string): void => log(level, `ingest: ${message}`)

  const listen = <T extends { readonly port: number }>(name: string, port: number, start: () => Promise<T>): Promise<T | undefined> =>
    start().then(
      (server) => {
        log("info", `ingest: ${name} listens on ${settings.host}:${server.port}`)
        return server
      },
      (error: NodeJS.ErrnoException) => {
        failedAt = performance.now()
        failed.add(name)
        log(
          "error",
          `ingest: ${name} could not listen on ${settings.host}:${port} (${error.code ?? error.message}); ` +
            `ingest channels cannot be pushed over ${name} until it can (tried again every ${RETRY_MS / 1000} s)`
        )
        return undefined
      }
    )

  const close = async (): Promise<void> => {
    const [r, s] = [rtmp, srt]
    rtmp = undefined
    srt = undefined
    open = { rtmp: undefined, srt: undefined }
    failed.clear()
    await Promise.all([r?.then((server) => server?.close()), s?.then((server) => server?.close())])
  }

  return {
    want(wanted) {
      if (stopped) return
      if (!wanted) {
        if (rtmp !== undefined || srt !== undefined) void close()
        return
      }
      const retry = performance.now() - failedAt > RETRY_MS
      const { rtmpPort, srtPort } = settings
      if (rtmpPort !== null && (rtmp === undefined || (failed.has("RTMP") && retry))) {
        failed.delete("RTMP")
        const starting = listen("RTMP", rtmpPort, () => startRtmpServer({ host: settings.host, port: rtmpPort, gate, log: serverLog }))
        rtmp = starting
        void starting.then((server) => {
          if (rtmp === starting) open = { ...open, rtmp: server?.port }
        })
      }
      if (srtPort !== null && (srt === undefined || (failed.has("SRT") && retry))) {
        failed.delete("SRT")
        const starting = listen("SRT", srtPort, () => startSrtServer({ host: settings.host, port: srtPort, gate, log: serverLog }))
        srt = starting
        void starting.then((server) => {
          if (srt === starting) open = { ...open, srt: server?.port }
        })
      }
    },
    ports: () => open,
    async stop() {
      stopped = true
      await close()
    }
  }
}

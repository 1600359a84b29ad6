/**
 * The relay bench's other process: the upstream (the demo loop at the bench's bitrate, counting
 * its requests and noting when each part is first listed) and the simulated low-latency viewers,
 * so neither takes CPU from the server being measured. Driven by relayBench.ts over IPC.
 */
import { Agent, fetch } from "undici"
import { startUpstream } from "../support/relayUpstream.ts"

export type LoadCommand =
  | { readonly type: "run"; readonly viewers: number; readonly seconds: number; readonly sources: ReadonlyArray<string> }
  | { readonly type: "stop" }

export interface LoadResult {
  readonly type: "result"
  readonly viewers: number
  readonly seconds: number
  /** parts the upstream published during the run */
  readonly newParts: number
  /** the upstream's media objects asked for during the run, and the requests for them */
  readonly mediaObjects: number
  readonly mediaRequests: number
  readonly playlistRequests: number
  /** ms from the upstream first listing a part to a viewer's blocking playlist answer naming it */
  readonly delays: ReadonlyArray<number>
  readonly answers: number
  readonly errors: number
  readonly firstErrors: ReadonlyArray<string>
  /** answers later than the part hold-back (a player with that buffer would have stalled) */
  readonly stalls: number
  /** bytes of the distinct media objects the viewers got since the feed started (what the server's ring keeps, up to its cap) */
  readonly distinctBytes: number
  readonly bytes: number
}

const PART_HOLD_BACK_MS = 1200
const epochNow = (): number => performance.timeOrigin + performance.now()

const mediaDir = process.argv[2]
const listed = new Map<string, number>()
// every media object the viewers got, over all runs: the feed keeps them all while under its cap
const objects = new Map<string, number>()

/** The parts a low-latency media playlist lists, by media sequence, and its edge. */
const partsOf = (text: string) => {
  let sequence = Number(/#EXT-X-MEDIA-SEQUENCE:(\d+)/.exec(text)?.[1] ?? 0)
  const parts = new Map<number, Array<string>>()
  let current: Array<string> = []
  for (const line of text.split("\n")) {
    if (line.startsWith("#EXT-X-PART:")) current.push(/URI="([^"]+)"/.exec(line)?.[1] ?? "")
    else if (line !== "" && !line.startsWith("#")) {
      parts.set(sequence, current)
      current = []
      sequence += 1
    }
  }
  parts.set(sequence, current)
  return { parts, edge: { sequence, parts: current.length } }
}

const upstream = await startUpstream({
  ...(mediaDir === undefined ? {} : { mediaDir }),
  onPlaylist: (path, text) => {
    if (path !== "/live/demo1/ll.m3u8") return
    const at = epochNow()
    for (const [sequence, parts] of partsOf(text).parts) {
      for (let part = 0; part < parts.length; part += 1) if (!listed.has(`${sequence}.${part}`)) listed.set(`${sequence}.${part}`, at)
    }
  }
})

// one connection per viewer at most: the server allows 256 from one address
const agent = new Agent({ connections: 230, keepAliveTimeout: 30_000 })

async function run(command: Extract<LoadCommand, { type: "run" }>): Promise<LoadResult> {
  const before = new Map(upstream.counts)
  const listedBefore = listed.size
  const until = performance.now() + command.seconds * 1000
  const delays: Array<number> = []
  const firstErrors: Array<string> = []
  let answers = 0
  let errors = 0
  let stalls = 0
  let bytes = 0
  const failed = (what: string) => {
    errors += 1
    if (firstErrors.length < 5) firstErrors.push(what)
  }

  const viewer = async (source: string, index: number) => {
    // viewers arrive over one part's time, not all in the same instant
    await new Promise((resolve) => setTimeout(resolve, (index * 400) / command.viewers))
    let playlist = await (await fetch(source, { dispatcher: agent })).text()
    let edge = partsOf(playlist).edge
    while (performance.now() < until) {
      const wanted = { ...edge }
      let answered: Awaited<ReturnType<typeof fetch>>
      try {
        answered = await fetch(`${source}&_HLS_msn=${wanted.sequence}&_HLS_part=${wanted.parts}`, { dispatcher: agent })
      } catch (error) {
        failed(`playlist: ${String(error)}`)
        await new Promise((resolve) => setTimeout(resolve, 200))
        continue
      }
      const at = epochNow()
      if (answered.status !== 200) {
        failed(`playlist ${answered.status}: ${(await answered.text()).slice(0, 120)}`)
        await new Promise((resolve) => setTimeout(resolve, 200))
        continue
      }
      playlist = await answered.text()
      answers += 1
      const read = partsOf(playlist)
      edge = read.edge
      // the part asked for, or when it closed its segment, the next segment's first
      const key =
        read.parts.get(wanted.sequence)?.[wanted.parts] === undefined ? `${wanted.sequence + 1}.0` : `${wanted.sequence}.${wanted.parts}`
      const [sequence = 0, part = 0] = key.split(".").map(Number)
      const uri = read.parts.get(sequence)?.[part]
      const first = listed.get(key)
      if (first !== undefined && uri !== undefined) {
        const delay = at - first
        delays.push(delay)
        if (delay > PART_HOLD_BACK_MS) stalls += 1
      }
      if (uri === undefined) continue
      try {
        const media = await fetch(new URL(uri, source), { dispatcher: agent })
        const body = await media.arrayBuffer()
        if (media.status !== 200) failed(`media ${media.status}`)
        else {
          bytes += body.byteLength
          objects.set(uri.split("?", 1)[0] ?? uri, body.byteLength)
        }
      } catch (error) {
        failed(`media: ${String(error)}`)
      }
    }
  }
  await Promise.all(Array.from({ length: command.viewers }, (_, i) => viewer(command.sources[i % command.sources.length] ?? "", i)))

  const during = [...upstream.counts].map(([path, count]) => [path, count - (before.get(path) ?? 0)] as const).filter(([, n]) => n > 0)
  const media = during.filter(([path]) => /\/live\/demo1\/(seg|part)\//.test(path))
  return {
    type: "result",
    viewers: command.viewers,
    seconds: command.seconds,
    newParts: listed.size - listedBefore,
    mediaObjects: media.length,
    mediaRequests: media.reduce((sum, [, n]) => sum + n, 0),
    playlistRequests: during.filter(([path]) => path.endsWith(".m3u8")).reduce((sum, [, n]) => sum + n, 0),
    delays,
    answers,
    errors,
    firstErrors,
    stalls,
    distinctBytes: [...objects.values()].reduce((sum, n) => sum + n, 0),
    bytes
  }
}

process.on("message", (message: LoadCommand) => {
  if (message.type === "stop") {
    void upstream.stop().then(() => process.exit(0))
    return
  }
  void run(message).then((result) => process.send?.(result))
})
process.send?.({ type: "ready", url: upstream.url })

import { createReadStream } from "node:fs"
import { pipeline, Readable } from "node:stream"
import { createGunzip } from "node:zlib"

/** Where a guide comes from: a file on this machine, or an http(s) URL. */
export type GuideSource = { readonly file: string } | { readonly url: string }

/** The source could not be read (missing file, refused connection, HTTP error, broken gzip); the message says why, not where. */
export class GuideSourceError extends Error {
  override readonly name = "GuideSourceError"
}

const GZIP_MAGIC = [0x1f, 0x8b] as const
// Text chunks of a quarter of a megabyte would be "large objects" that only a full collection
// frees; at this size they die young, and a 50 MB file imports in a few MB of heap.
const READ_CHUNK = 64 * 1024

/** How long a guide may take to read, and how much of it there may be. */
export interface GuideLimits {
  /** a URL's whole download */
  readonly downloadMs: number
  /** a URL that sends nothing for this long is given up on */
  readonly stallMs: number
  /** the guide's size once decompressed, file or URL (a small gzip can unpack to gigabytes) */
  readonly maxBytes: number
}

// A week of a few hundred channels is some 100 MB of XMLTV; a provider that takes longer than
// this, goes quiet or sends more is broken, and the refresh job must not wait on it forever.
export const GUIDE_LIMITS: GuideLimits = { downloadMs: 10 * 60 * 1000, stallMs: 60 * 1000, maxBytes: 1024 * 1024 * 1024 }

const duration = (ms: number): string =>
  ms >= 60_000 ? `${Math.round(ms / 60_000)} min` : ms >= 1000 ? `${Math.round(ms / 1000)} s` : `${ms} ms`
const mebibytes = (bytes: number): string => `${Math.round(bytes / (1024 * 1024))} MiB`

/** How to name a source in messages and logs; a URL's query may hold the provider's credentials. */
export function describeSource(source: GuideSource): string {
  if ("file" in source) return source.file
  try {
    const url = new URL(source.url)
    return `${url.origin}${url.pathname}`
  } catch {
    return "the guide URL"
  }
}

async function openBytes(source: GuideSource, signal: AbortSignal | undefined): Promise<AsyncIterable<Uint8Array>> {
  if ("file" in source) return createReadStream(source.file, { highWaterMark: READ_CHUNK, signal })
  let response: Response
  try {
    response = await fetch(source.url, { signal })
  } catch (error) {
    const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : undefined
    throw new GuideSourceError(cause ?? (error instanceof Error ? error.message : String(error)))
  }
  if (!response.ok || response.body === null) {
    await response.body?.cancel()
    throw new GuideSourceError(`HTTP ${response.status} ${response.statusText}`.trimEnd())
  }
  return Readable.fromWeb(response.body as import("node:stream/web").ReadableStream<Uint8Array>)
}

/** Text of the XML declaration's encoding, read from the first bytes as ASCII. */
function declaredEncoding(head: Uint8Array): string {
  const start = Buffer.from(head.subarray(0, 256)).toString("latin1")
  return /^(?:\uFEFF|\xEF\xBB\xBF)?<\?xml[^>]*\bencoding\s*=\s*["']([A-Za-z0-9._-]+)["']/.exec(start)?.[1] ?? "utf-8"
}

/** At least `size` bytes from the front (fewer only when that is all there is), and the rest. */
async function split(bytes: AsyncIterable<Uint8Array>, size: number): Promise<{ head: Uint8Array; rest: AsyncIterable<Uint8Array> }> {
  const iterator = bytes[Symbol.asyncIterator]()
  const parts: Array<Uint8Array> = []
  let length = 0
  while (length < size) {
    const next = await iterator.next()
    if (next.done === true) break
    parts.push(next.value)
    length += next.value.length
  }
  return { head: Buffer.concat(parts), rest: { [Symbol.asyncIterator]: () => iterator } }
}

async function* decode(bytes: AsyncIterable<Uint8Array>): AsyncGenerator<string> {
  const { head, rest } = await split(bytes, 256)
  const encoding = declaredEncoding(head)
  let decoder: TextDecoder
  try {
    decoder = new TextDecoder(encoding)
  } catch {
    throw new GuideSourceError(`the file declares an encoding this server cannot read: ${encoding}`)
  }
  yield decoder.decode(head, { stream: true })
  for await (const chunk of rest) yield decoder.decode(chunk, { stream: true })
  yield decoder.decode()
}

async function* gunzipWhenCompressed(bytes: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  const { head, rest } = await split(bytes, GZIP_MAGIC.length)
  // by content, not by name or Content-Type: providers serve .xml.gz as text/xml and the reverse
  if (head[0] !== GZIP_MAGIC[0] || head[1] !== GZIP_MAGIC[1]) {
    yield head
    yield* rest
    return
  }
  const compressed = Readable.from(
    (async function* () {
      yield head
      yield* rest
    })()
  )
  const plain = pipeline(compressed, createGunzip(), () => undefined)
  try {
    for await (const chunk of plain) yield chunk as Uint8Array
  } catch (error) {
    throw new GuideSourceError(`gzip: ${error instanceof Error ? error.message : String(error)}`)
  }
}

/** Passes the bytes on, giving up once they pass `maxBytes`. */
async function* bounded(bytes: AsyncIterable<Uint8Array>, maxBytes: number): AsyncGenerator<Uint8Array> {
  let total = 0
  for await (const chunk of bytes) {
    total += chunk.length
    if (total > maxBytes) throw new GuideSourceError(`the guide is larger than ${mebibytes(maxBytes)}`)
    yield chunk
  }
}

/** Calls `onStall` when a chunk is waited for `stallMs` in vain; the time the reader spends on one is not counted. */
async function* watched(bytes: AsyncIterable<Uint8Array>, stallMs: number, onStall: () => void): AsyncGenerator<Uint8Array> {
  const iterator = bytes[Symbol.asyncIterator]()
  let done = false
  try {
    while (!done) {
      const timer = setTimeout(onStall, stallMs)
      let next: IteratorResult<Uint8Array>
      try {
        next = await iterator.next()
      } finally {
        clearTimeout(timer)
      }
      done = next.done === true
      if (!done) yield next.value
    }
  } finally {
    // a reader that stops early closes the download
    if (!done) await iterator.return?.()
  }
}

/** The guide's text, decompressed and decoded as it arrives; nothing is read before the first pull. */
export async function* guideText(source: GuideSource, signal?: AbortSignal, limits: GuideLimits = GUIDE_LIMITS): AsyncGenerator<string> {
  // a URL gets a deadline and a watch for silence; either ends the download with its own reason
  const stall = new AbortController()
  const deadline = AbortSignal.timeout(limits.downloadMs)
  const download = "url" in source ? AbortSignal.any([...(signal === undefined ? [] : [signal]), deadline, stall.signal]) : signal
  const givenUp = (): GuideSourceError | undefined =>
    signal?.aborted === true
      ? undefined
      : stall.signal.aborted
        ? new GuideSourceError(`the guide server sent nothing for ${duration(limits.stallMs)}`)
        : deadline.aborted && "url" in source
          ? new GuideSourceError(`the download took longer than ${duration(limits.downloadMs)}`)
          : undefined
  try {
    const opened = await openBytes(source, download)
    const bytes = "url" in source ? watched(opened, limits.stallMs, () => stall.abort()) : opened
    yield* decode(bounded(gunzipWhenCompressed(bytes), limits.maxBytes))
  } catch (error) {
    const reason = givenUp()
    if (reason !== undefined) throw reason
    if (error instanceof GuideSourceError || signal?.aborted === true) throw error
    // `ENOENT: no such file or directory, open '/x'`: the path is said elsewhere already
    throw new GuideSourceError((error instanceof Error ? error.message : String(error)).replace(/, \w+ '.*'$/, ""))
  }
}

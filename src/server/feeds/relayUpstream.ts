import type { Agent, fetch } from "undici"

/** What an upstream answered: the whole body, read within the caps. */
export interface UpstreamAnswer {
  readonly status: number
  /** where the body came from after redirects: relative URIs in a playlist resolve against it */
  readonly url: string
  readonly contentType: string
  readonly body: Buffer
}

/** Why an upstream request gave nothing usable, in one line for staff and the operator. */
export class UpstreamError extends Error {
  override readonly name = "UpstreamError"
  readonly status: number | undefined
  constructor(message: string, status?: number) {
    super(message)
    this.status = status
  }
}

export interface UpstreamRequest {
  readonly url: string
  readonly headers: ReadonlyArray<readonly [string, string]>
  /** the body may not be larger; a bigger one (a playlist that never ends) is an error */
  readonly maxBytes: number
  /** for the whole exchange, body included: a segment that never ends is an error */
  readonly timeoutMs: number
  readonly signal?: AbortSignal
  /** only these bytes of the resource (an upstream that ignores the Range header sends it whole, and we cut it) */
  readonly range?: { readonly offset: number; readonly length: number }
}

interface UpstreamClient {
  readonly fetch: typeof fetch
  readonly agent: Agent
}

// The HTTP client is a large library that only a server relaying channels needs: it is loaded
// with the first upstream request, not at every start.
let client: Promise<UpstreamClient> | undefined
const upstreamClient = (): Promise<UpstreamClient> => {
  client ??= import("undici").then(({ Agent, fetch }) => ({
    fetch,
    // Few connections per upstream: a provider allows one or two viewers, and every viewer of ours
    // shares the feed's. HTTP keep-alive keeps the playlist reloads on one connection.
    agent: new Agent({ connections: 4, keepAliveTimeout: 30_000, connect: { timeout: 10_000 } })
  }))
  client.catch(() => (client = undefined))
  return client
}

const reason = (error: unknown): string => {
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error
  if (cause instanceof Error) {
    const code = (cause as { code?: unknown }).code
    return typeof code === "string" ? `${code}: ${cause.message}` : cause.message
  }
  return String(cause)
}

/** Fetches one upstream object whole, following at most a few redirects. */
export async function fetchUpstream(request: UpstreamRequest): Promise<UpstreamAnswer> {
  const { range } = request
  const timeout = AbortSignal.timeout(request.timeoutMs)
  const signal = request.signal === undefined ? timeout : AbortSignal.any([request.signal, timeout])
  let response: Awaited<ReturnType<typeof fetch>>
  try {
    const { fetch, agent } = await upstreamClient()
    response = await fetch(request.url, {
      headers: [
        ...request.headers.map(([name, value]) => [name, value] as [string, string]),
        ["user-agent", "StreamHub relay"],
        ...(range === undefined ? [] : [["range", `bytes=${range.offset}-${range.offset + range.length - 1}`] as [string, string]])
      ],
      redirect: "follow",
      dispatcher: agent,
      signal
    })
  } catch (error) {
    if (timeout.aborted) throw new UpstreamError(`no answer within ${request.timeoutMs / 1000} s`)
    if (request.signal?.aborted) throw new UpstreamError("stopped")
    throw new UpstreamError(`cannot reach the upstream (${reason(error)})`)
  }
  if (!response.ok) {
    await response.body?.cancel().catch(() => undefined)
    throw new UpstreamError(
      `the upstream answered ${response.status}${response.statusText ? ` ${response.statusText}` : ""}`,
      response.status
    )
  }
  // a whole resource sent for a range is read up to the range's end only
  const whole = range !== undefined && response.status === 200
  const maxBytes = whole ? Math.min(request.maxBytes, range.offset + range.length) : request.maxBytes
  const declared = Number(response.headers.get("content-length") ?? Number.NaN)
  if (declared > request.maxBytes && !whole) {
    await response.body?.cancel().catch(() => undefined)
    throw new UpstreamError(`the upstream's answer is ${declared} bytes, more than the ${request.maxBytes} allowed`)
  }
  const chunks: Array<Uint8Array> = []
  let size = 0
  try {
    for await (const chunk of response.body ?? []) {
      size += chunk.byteLength
      chunks.push(chunk)
      // leaving the loop cancels the rest
      if (whole && size >= maxBytes) break
      if (size > maxBytes) {
        await response.body?.cancel().catch(() => undefined)
        throw new UpstreamError(`the upstream's answer is more than the ${request.maxBytes} bytes allowed`)
      }
    }
  } catch (error) {
    if (error instanceof UpstreamError) throw error
    if (timeout.aborted) throw new UpstreamError(`the upstream's answer did not end within ${request.timeoutMs / 1000} s`)
    if (request.signal?.aborted) throw new UpstreamError("stopped")
    throw new UpstreamError(`the upstream's answer broke off (${reason(error)})`)
  }
  let body = Buffer.concat(chunks, size)
  if (range !== undefined) {
    // a copy: the ring must not keep the whole resource alive for one range of it
    if (whole) body = Buffer.from(body.subarray(range.offset, range.offset + range.length))
    if (body.length !== range.length) {
      throw new UpstreamError(
        `the upstream sent ${body.length} bytes for a range of ${range.length} (bytes ${range.offset}-${range.offset + range.length - 1})`
      )
    }
  }
  return { status: response.status, url: response.url || request.url, contentType: response.headers.get("content-type") ?? "", body }
}

/** `Name: value`, as `--header` takes it; undefined when it is not one. */
export function parseHeader(text: string): readonly [string, string] | undefined {
  const colon = text.indexOf(":")
  if (colon <= 0) return undefined
  const name = text.slice(0, colon).trim()
  const value = text.slice(colon + 1).trim()
  // a token, and a value without line breaks: anything else could split the request
  if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name) || /[\r\n\0]/.test(value)) return undefined
  return [name, value]
}

const TYPES: Readonly<Record<string, string>> = {
  ts: "video/mp2t",
  m4s: "video/iso.segment",
  mp4: "video/mp4",
  m4a: "audio/mp4",
  m4v: "video/mp4",
  aac: "audio/aac",
  vtt: "text/vtt",
  webvtt: "text/vtt",
  key: "application/octet-stream"
}

/** The upstream's type when it names one we serve as media; otherwise by extension. */
export const mediaType = (given: string, url: string): string => {
  const type = given.split(";", 1)[0]?.trim().toLowerCase() ?? ""
  if (/^(video|audio|text\/vtt|application\/(mp4|octet-stream))/.test(type)) return type
  const extension = /\.([A-Za-z0-9]{1,6})$/.exec(new URL(url).pathname)?.[1]?.toLowerCase() ?? ""
  return TYPES[extension] ?? "application/octet-stream"
}

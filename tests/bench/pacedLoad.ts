import http from "node:http"

/** What a load measured: throughput, latency in ms, and every request that did not succeed. */
export interface Load {
  readonly rps: number
  readonly p50: number
  readonly p99: number
  readonly errors: number
  readonly requests: number
}

export interface PacedRequest {
  readonly method: "GET" | "POST"
  readonly path: string
  readonly headers?: Readonly<Record<string, string>>
  readonly body?: string
}

export interface PacedLoadOptions {
  readonly url: string
  readonly perSecond: number
  readonly seconds: number
  /** kept-alive sockets the requests share; one waits for a free socket when all are busy */
  readonly connections: number
  readonly timeoutMs?: number
  readonly request: (n: number) => PacedRequest
}

export interface PacedLoad extends Load {
  /** the longest the generator itself fell behind its schedule, ms: large values mean the bench, not the server, was slow */
  readonly lateMs: number
}

const percentile = (sorted: ReadonlyArray<number>, p: number): number =>
  sorted.length === 0 ? Number.NaN : (sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? Number.NaN)

/**
 * Sends requests at an even pace, request n at start + n / perSecond, whether or not the earlier
 * ones have been answered: an open loop, as independent players are. (autocannon's `overallRate`
 * lets each connection send its whole second's share back to back as each second begins, and
 * records a rated answer's latency with an expected interval of `Math.ceil(1 / rate)` = 1 ms,
 * adding a made-up sample for every millisecond of it; neither fits a steady stream of players.)
 * A request's latency runs from the moment it was handed to the socket pool to its answer's last
 * byte, so time spent waiting for a free socket, which only a slow server causes, counts.
 */
export async function pacedLoad(options: PacedLoadOptions): Promise<PacedLoad> {
  const target = new URL(options.url)
  const agent = new http.Agent({ keepAlive: true, maxSockets: options.connections })
  const interval = 1000 / options.perSecond
  const total = Math.max(1, Math.round(options.perSecond * options.seconds))
  const latencies: Array<number> = []
  let errors = 0
  let lateMs = 0
  const inFlight = new Set<Promise<void>>()

  const send = (n: number): void => {
    const { method, path, headers = {}, body } = options.request(n)
    const started = performance.now()
    const done = new Promise<void>((resolve) => {
      const fail = () => {
        errors += 1
        resolve()
      }
      const request = http.request(
        {
          agent,
          host: target.hostname,
          port: target.port,
          method,
          path,
          headers: body === undefined ? headers : { ...headers, "content-length": String(Buffer.byteLength(body)) },
          timeout: options.timeoutMs ?? 10_000
        },
        (response) => {
          response.resume()
          response.once("end", () => {
            if ((response.statusCode ?? 0) >= 200 && (response.statusCode ?? 0) < 300) latencies.push(performance.now() - started)
            else errors += 1
            resolve()
          })
          response.once("error", fail)
        }
      )
      request.once("timeout", () => request.destroy(new Error("timed out")))
      request.once("error", fail)
      request.end(body)
    })
    inFlight.add(done)
    void done.then(() => inFlight.delete(done))
  }

  const start = performance.now()
  await new Promise<void>((resolve) => {
    let n = 0
    const tick = (): void => {
      const now = performance.now()
      while (n < total && start + n * interval <= now) {
        lateMs = Math.max(lateMs, now - (start + n * interval))
        send(n)
        n += 1
      }
      if (n >= total) {
        resolve()
        return
      }
      setTimeout(tick, Math.max(0, start + n * interval - performance.now()))
    }
    tick()
  })
  await Promise.all([...inFlight])
  const elapsed = (performance.now() - start) / 1000
  agent.destroy()
  latencies.sort((a, b) => a - b)
  return { rps: total / elapsed, p50: percentile(latencies, 0.5), p99: percentile(latencies, 0.99), errors, requests: total, lateMs }
}

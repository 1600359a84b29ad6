import { api } from "../../../src/domain/contract/api.ts"
import type { EpgEntry, NowNext } from "../../../src/domain/Schedule.ts"
import { ORIGIN } from "../../support/inProcessServer.ts"

const MINUTE = 60_000

/** A programme `from`–`to` minutes around `at` (negative: before it). */
export const programmeAround = (at: number, from: number, to: number, title: string, subtitle = ""): EpgEntry => ({
  StartTime: new Date(at + from * MINUTE).toISOString(),
  EndTime: new Date(at + to * MINUTE).toISOString(),
  Title: title,
  Subtitle: subtitle
})

type Slots = Omit<NowNext, "streamId">

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } })

/**
 * Answers GET /api/guide/now as its contract says, for the seeded streams named in `byTitle`
 * (looked up on the server, which numbers them); everything else goes to the real server. The
 * server's guide feature answers this path once it exists, but the jsdom seed has no guide rows.
 */
export const fakeGuide = (byTitle: Readonly<Record<string, Slots>>, { fail = false } = {}) => {
  const asked: Array<string> = []
  const wrapFetch =
    (fetch: typeof globalThis.fetch): typeof globalThis.fetch =>
    async (input, init) => {
      const path = new URL(input instanceof Request ? input.url : String(input), ORIGIN).pathname
      asked.push(path)
      if (path !== api.nowNext.path) return fetch(input, init)
      if (fail) return json(500, { success: false, status: 500, detail: "The guide is unavailable" })
      const listed = (await (await fetch(api.streams.path, init === undefined ? {} : { headers: init.headers })).json()) as {
        readonly data: ReadonlyArray<{ readonly id: number; readonly title: string }>
      }
      const data = listed.data.flatMap((stream) => {
        const slots = byTitle[stream.title]
        return slots === undefined ? [] : [{ streamId: stream.id, ...slots }]
      })
      return json(200, { success: true, data })
    }
  return { wrapFetch, asked }
}

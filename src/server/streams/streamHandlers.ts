import type { FastifyRequest } from "fastify"
import type { streamsContract } from "../../domain/contract/streams.ts"
import { sourceFor } from "../../domain/playerChoice.ts"
import type { PlayerChoice, StartPlaylist, StreamsQuery } from "../../domain/Stream.ts"
import type { HandlersOf } from "../http/registerContract.ts"
import type { Session } from "../http/session.ts"
import type { StreamList } from "./streamListCache.ts"
import { streamsAnswers, wireStream } from "./streamsAnswer.ts"

export type StreamHandlers = HandlersOf<typeof streamsContract>

/** Our own origin's streams come back with the session's grants in their addresses. */
export type SignStreams = <T extends { readonly id: number; readonly src: string | null; readonly src_sldp: string | null }>(
  session: Session,
  streams: ReadonlyArray<T>,
  /** the name the browser reached us by: an address there is our own origin too */
  host?: string
) => Promise<Array<T>>

/**
 * A playlist larger than this is left for the player to fetch: a live one is a few KB, a channel's
 * time-shift window (hours of 2 s segments) a few hundred, which the answer's compression takes
 * to a few tens.
 */
const MAX_START_PLAYLIST_CHARS = 1024 * 1024
const PLAYLIST_TYPE = /mpegurl/i

/**
 * The playlist a player fetches first, fetched for it here through this server's own routes, as
 * if the viewer had asked: the same grant check, the same connection opened for the same
 * address. Only for a source the signer granted (our own origin's); undefined when the origin
 * refuses it (the player then asks and hears why) or the playlist is not one.
 */
async function startPlaylist(request: FastifyRequest, raw: string | null, signed: string | null): Promise<StartPlaylist | undefined> {
  if (signed === null || raw === null || signed === raw) return undefined
  const address = new URL(signed, "http://origin.invalid")
  const forwarded = request.headers["x-forwarded-for"]
  const answer = await request.server.inject({
    method: "GET",
    url: `${address.pathname}${address.search}`,
    // the address the gate counts, worked out from the same socket and proxy header as this request's
    remoteAddress: request.socket.remoteAddress ?? request.ip,
    headers: {
      ...(forwarded === undefined ? {} : { "x-forwarded-for": forwarded }),
      ...(request.headers.host === undefined ? {} : { host: request.headers.host })
    }
  })
  if (answer.statusCode !== 200 || !PLAYLIST_TYPE.test(String(answer.headers["content-type"] ?? ""))) return undefined
  if (answer.body.length > MAX_START_PLAYLIST_CHARS) return undefined
  return { url: signed, text: answer.body }
}

/**
 * `list` answers rows shared with other requests: the signer and the answer copy, never change
 * them. The list's answer is written once per list read (see streamsAnswer.ts); each request
 * signs the sources for its own session and fills them in.
 */
export function streamHandlers(list: () => Promise<StreamList>, sign: SignStreams): StreamHandlers {
  const answerFor = streamsAnswers()
  return {
    async streams({ session, request, query }) {
      const rows = await list()
      const answer = playlistWanted(query) ? undefined : answerFor(rows)
      if (answer !== undefined) {
        const encoded = answer.encode(await sign(session, answer.sources, request.host))
        if (encoded !== undefined) return encoded
      }
      const signed = await sign(session, rows, request.host)
      const data = signed.map(wireStream)
      const playlist = await playlistAsked(request, query, rows, signed)
      return playlist === undefined ? { success: true, data } : { success: true, data, playlist }
    }
  }
}

const playlistWanted = (query: StreamsQuery | undefined): query is StreamsQuery & Required<StreamsQuery> =>
  query?.start !== undefined && query.player !== undefined

const playlistAsked = async (
  request: FastifyRequest,
  query: StreamsQuery | undefined,
  rows: StreamList,
  signed: ReadonlyArray<{ readonly src: string | null; readonly src_sldp: string | null; readonly maintenance_mode: boolean }>
): Promise<StartPlaylist | undefined> => {
  if (query === undefined || !playlistWanted(query)) return undefined
  const index = Number(query.start)
  const player = Number(query.player) as PlayerChoice
  const raw = rows[index]
  const granted = signed[index]
  if (raw === undefined || granted === undefined || granted.maintenance_mode) return undefined
  return startPlaylist(request, sourceFor(raw, player), sourceFor(granted, player))
}

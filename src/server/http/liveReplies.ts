import type { FastifyReply } from "fastify"

/**
 * The options of every live playlist route: sent as they are. A live playlist changes with every
 * part and carries its viewer's grant, so it is written afresh for each request; compressing each
 * one cost more CPU and memory than its few kilobytes save (see `npm run bench -- --only relay`).
 */
export const LIVE_PLAYLIST_ROUTE = { compress: false } as const

// Which other origins may read them (cast receivers) is decided with the security headers.
export const playlistReply = (reply: FastifyReply, text: string | Buffer) =>
  reply.type("application/vnd.apple.mpegurl").header("Cache-Control", "no-cache").send(text)

// A sequence number always names the same bytes, so media may be cached forever.
export const mediaReply = (reply: FastifyReply, bytes: Buffer, type = "video/mp2t") =>
  reply.type(type).header("Cache-Control", "public, max-age=31536000, immutable").send(bytes)

export const refuse = (reply: FastifyReply, status: 400 | 403 | 404 | 503, detail: string) =>
  reply.code(status).header("Cache-Control", "no-cache").send({ success: false, status, detail })

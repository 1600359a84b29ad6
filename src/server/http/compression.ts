import { constants } from "node:zlib"
import fastifyCompress from "@fastify/compress"
import type { FastifyInstance } from "fastify"

/**
 * Compresses answers worth it (JSON, playlists, any text over 1 KB) as brotli or gzip, as the
 * client accepts. The built app is compressed once at build time and served as it is; this is
 * for what the server writes per request, so brotli runs at a quality that costs about what gzip
 * does (the default, 11, takes tens of milliseconds on a large guide day).
 */
export async function registerCompression(app: FastifyInstance): Promise<void> {
  await app.register(fastifyCompress, {
    global: true,
    threshold: 1024,
    encodings: ["br", "gzip"],
    brotliOptions: { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } },
    zlibOptions: { level: 6 }
  })
}

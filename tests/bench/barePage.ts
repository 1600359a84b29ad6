import { readFile } from "node:fs/promises"
import { createServer, type Server } from "node:http"
import { join } from "node:path"

const root = join(import.meta.dirname, "..", "..")

/**
 * The reference: hls.js with its default settings on an otherwise empty page, marking its first
 * frame the same way the player does (the frame callback, else the first `playing`).
 */
const html = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>bare hls.js</title></head>
<body style="margin:0;background:#000">
<video id="video" muted playsinline style="width:100%;aspect-ratio:16/9"></video>
<script src="/hls.min.js"></script>
<script>
  const video = document.getElementById("video")
  const mark = (ms) => { if (!document.body.dataset.firstFrameMs) document.body.dataset.firstFrameMs = String(Math.round(ms)) }
  if (video.requestVideoFrameCallback) video.requestVideoFrameCallback((now, metadata) => mark(metadata.presentationTime ?? now))
  else video.addEventListener("playing", () => mark(performance.now()), { once: true })
  const hls = new Hls()
  hls.on(Hls.Events.MANIFEST_PARSED, () => video.play())
  hls.loadSource(new URLSearchParams(location.search).get("src"))
  hls.attachMedia(video)
</script>
</body>
</html>
`

export interface BarePage {
  readonly url: (source: string) => string
  readonly close: () => Promise<void>
}

/** Serves the bare page and hls.js's own build from a port of its own (the server's PUBLIC_URL, see run.ts). */
export const startBarePage = async (port: number): Promise<BarePage> => {
  const library = await readFile(join(root, "node_modules/hls.js/dist/hls.min.js"))
  const server: Server = createServer((request, response) => {
    if (request.url?.startsWith("/hls.min.js")) {
      // the same caching our own built assets get
      response.writeHead(200, { "content-type": "text/javascript", "cache-control": "public, max-age=31536000, immutable" })
      response.end(library)
    } else {
      response.writeHead(200, { "content-type": "text/html; charset=utf-8", "cache-control": "no-cache" })
      response.end(html)
    }
  })
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve))
  return {
    url: (source) => `http://127.0.0.1:${port}/bare.html?src=${encodeURIComponent(source)}`,
    close: () => new Promise((resolve) => server.close(() => resolve()))
  }
}

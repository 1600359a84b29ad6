import type { FastifyInstance } from "fastify"
import { failureBody } from "../http/HttpFailure.ts"

export const posterPath = (channel: string): string => `/posters/${channel}.svg`

const escapeXml = (text: string): string => text.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`)

// Classic colour bars: recognisable as a test channel at thumbnail size, and no image files
// to ship or build.
const BARS = ["#c0c0c0", "#c0c000", "#00c0c0", "#00c000", "#c000c0", "#c00000", "#0000c0"]

/** A 16:9 test-card poster naming the channel. */
export function posterSvg(title: string, subtitle: string, hue: number): string {
  const bars = BARS.map(
    (colour, i) => `<rect x="${(i * 640) / BARS.length}" y="0" width="${640 / BARS.length + 1}" height="230" fill="${colour}"/>`
  ).join("")
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="640" height="360" viewBox="0 0 640 360" role="img" aria-label="${escapeXml(title)}">`,
    bars,
    `<rect x="0" y="230" width="640" height="130" fill="hsl(${hue} 45% 18%)"/>`,
    `<rect x="0" y="226" width="640" height="6" fill="hsl(${hue} 80% 55%)"/>`,
    `<text x="32" y="292" font-family="system-ui, sans-serif" font-size="40" font-weight="700" fill="#ffffff">${escapeXml(title)}</text>`,
    `<text x="32" y="330" font-family="system-ui, sans-serif" font-size="22" fill="#d0d6e0">${escapeXml(subtitle)}</text>`,
    `<rect x="540" y="262" width="72" height="30" rx="4" fill="#e02424"/>`,
    `<text x="576" y="283" font-family="system-ui, sans-serif" font-size="18" font-weight="700" fill="#ffffff" text-anchor="middle">LIVE</text>`,
    "</svg>"
  ].join("")
}

export interface PosterChannel {
  readonly name: string
  readonly title: string
}

/** `/posters/<channel>.svg` for each demo channel. */
export function registerPosterRoutes(app: FastifyInstance, channels: ReadonlyArray<PosterChannel>): void {
  const posters = new Map(
    channels.map((channel, i) => [
      `${channel.name}.svg`,
      posterSvg(channel.title, "Test pattern · demo live channel", (200 + i * 70) % 360)
    ])
  )
  app.get<{ Params: { file: string } }>("/posters/:file", async (request, reply) => {
    const svg = posters.get(request.params.file)
    if (svg === undefined) return reply.code(404).send(failureBody(404, "Not found"))
    return reply.type("image/svg+xml; charset=utf-8").header("cache-control", "public, max-age=86400").send(svg)
  })
}

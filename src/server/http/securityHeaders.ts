import type { FastifyInstance } from "fastify"

/**
 * Google's Cast sender framework, the way Chromium casts a player that plays through MSE. Only its
 * two script folders, not the whole host, which serves much else.
 */
export const CAST_SCRIPT_SOURCES = ["https://www.gstatic.com/cv/js/sender/", "https://www.gstatic.com/cast/sdk/libs/sender/"]

/**
 * No inline script but those named by hash (`inlineScripts`: the app's page has one, see
 * vite.config.ts); the rest of the SPA build is module files. Styles allow inline because
 * React and the player set element styles at run time. Streams and posters load from this site
 * and from exactly the origins `mediaOrigins` names (those of the configured streams), whatever
 * their scheme: an http stream plays on an http site, and an https page is kept from it by the
 * browser's own mixed-content rule, which the player reports as such.
 */
export const contentSecurityPolicy = (mediaOrigins: ReadonlyArray<string> = [], inlineScripts: ReadonlyArray<string> = []): string => {
  const media = mediaOrigins.length === 0 ? "" : ` ${mediaOrigins.join(" ")}`
  return [
    "default-src 'self'",
    `script-src 'self' ${[...inlineScripts, ...CAST_SCRIPT_SOURCES].join(" ")}`,
    "style-src 'self' 'unsafe-inline'",
    `img-src 'self' data:${media}`,
    `media-src 'self' blob:${media}`,
    `connect-src 'self'${media}`,
    "worker-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'"
  ].join("; ")
}

/** The policy of every answer but the app's page, which adds the streams' origins. */
export const CONTENT_SECURITY_POLICY = contentSecurityPolicy()

/** The distinct http(s) origins among these URLs; relative ones are this site's own. */
export const originsOf = (urls: Iterable<string | null | undefined>): Array<string> => {
  const origins = new Set<string>()
  for (const url of urls) {
    if (url === null || url === undefined || !/^https?:\/\//i.test(url)) continue
    try {
      origins.add(new URL(url).origin)
    } catch {
      // not a URL a browser could load either: nothing to allow
    }
  }
  return [...origins].sort()
}

export function securityHeaders(publicUrl: string): Record<string, string> {
  return {
    "content-security-policy": CONTENT_SECURITY_POLICY,
    "x-content-type-options": "nosniff",
    "referrer-policy": "strict-origin-when-cross-origin",
    "x-frame-options": "DENY",
    "cross-origin-opener-policy": "same-origin",
    // other sites may not embed what we answer; the hook below opens the cast receiver's share
    "cross-origin-resource-policy": "same-origin",
    "permissions-policy": "camera=(), microphone=(), geolocation=(), payment=(), usb=()",
    // Only over https: sent on plain http it would be ignored at best and lock users out of a
    // site that is not ready for https at worst.
    ...(publicUrl.startsWith("https://") ? { "strict-transport-security": "max-age=31536000; includeSubDomains" } : {})
  }
}

const isCastable = (url: string): boolean => url.startsWith("/live/") || url.startsWith("/posters/")

const isApiPath = (url: string): boolean =>
  url === "/api" || url.startsWith("/api/") || url.startsWith("/api?") || url === "/time.json" || url.startsWith("/time.json?")

/**
 * The pages that may read the live streams and posters from script: this site's own, and Google's
 * Cast receivers, which play a cast stream from their own origin and ask for it with CORS.
 */
export const CAST_RECEIVER_ORIGINS = ["https://www.gstatic.com"]

/** Sets the headers before anything runs, so error and 404 answers carry them too. */
export function registerSecurityHeaders(app: FastifyInstance, publicUrl: string): void {
  const headers = securityHeaders(publicUrl)
  const mediaReaders = new Set([new URL(publicUrl).origin, ...CAST_RECEIVER_ORIGINS])
  app.addHook("onRequest", async (request, reply) => {
    reply.headers(headers)
    // A cast receiver on another origin loads the live streams and the posters; nothing else is for other sites.
    if (isCastable(request.url)) {
      reply.header("cross-origin-resource-policy", "cross-origin")
      const origin = request.headers.origin
      if (origin !== undefined && mediaReaders.has(origin)) reply.header("access-control-allow-origin", origin)
      reply.header("vary", "Origin")
    }
    // Answers carry per-user data and a session's view of the world; no cache may keep them.
    if (isApiPath(request.url)) reply.header("cache-control", "no-store")
  })
}

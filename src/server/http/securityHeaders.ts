import type { FastifyInstance } from "fastify"

// No inline script anywhere: the SPA build emits module files only. Styles allow inline because
// React and the player set element styles at run time. Media and posters may come from any
// https origin an operator configures for a stream.
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: https:",
  "media-src 'self' blob: https:",
  "connect-src 'self' https:",
  "worker-src 'self' blob:",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'"
].join("; ")

export function securityHeaders(publicUrl: string): Record<string, string> {
  return {
    "content-security-policy": CONTENT_SECURITY_POLICY,
    "x-content-type-options": "nosniff",
    "referrer-policy": "strict-origin-when-cross-origin",
    "x-frame-options": "DENY",
    "cross-origin-opener-policy": "same-origin",
    "permissions-policy": "camera=(), microphone=(), geolocation=(), payment=(), usb=()",
    // Only over https: sent on plain http it would be ignored at best and lock users out of a
    // site that is not ready for https at worst.
    ...(publicUrl.startsWith("https://") ? { "strict-transport-security": "max-age=31536000; includeSubDomains" } : {})
  }
}

const isApiPath = (url: string): boolean => url === "/api" || url.startsWith("/api/") || url.startsWith("/api?") ||
  url === "/time.json" || url.startsWith("/time.json?")

/** Sets the headers before anything runs, so error and 404 answers carry them too. */
export function registerSecurityHeaders(app: FastifyInstance, publicUrl: string): void {
  const headers = securityHeaders(publicUrl)
  app.addHook("onRequest", async (request, reply) => {
    reply.headers(headers)
    // Answers carry per-user data and a session's view of the world; no cache may keep them.
    if (isApiPath(request.url)) reply.header("cache-control", "no-store")
  })
}

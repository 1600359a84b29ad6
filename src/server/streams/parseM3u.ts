export interface M3uEntry {
  readonly title: string
  readonly url: string
  /** From `tvg-logo`. */
  readonly logo: string | undefined
  /** From `tvg-id`: the XMLTV channel whose guide this entry plays. */
  readonly epgId: string | undefined
}

const ATTRIBUTE = /([A-Za-z0-9_-]+)="([^"]*)"/g

/** The text after the first comma outside quotes: `#EXTINF:-1 tvg-logo="a,b",Title` → `Title`. */
function extinfTitle(line: string): string {
  let quoted = false
  for (let i = 0; i < line.length; i += 1) {
    const c = line[i]
    if (c === '"') quoted = !quoted
    else if (c === "," && !quoted) return line.slice(i + 1).trim()
  }
  return ""
}

/**
 * Extended M3U as IPTV playlists write it: `#EXTINF` lines (attributes, then a comma and the
 * title) each followed by a URL line. A URL without an `#EXTINF` is titled by its URL.
 */
export function parseM3u(text: string): M3uEntry[] {
  const entries: M3uEntry[] = []
  let pending: { title: string; logo: string | undefined; epgId: string | undefined } | undefined
  for (const raw of text.replace(/^\uFEFF/, "").split(/\r?\n/)) {
    const line = raw.trim()
    if (line === "") continue
    if (line.startsWith("#EXTINF")) {
      const attributes = new Map([...line.matchAll(ATTRIBUTE)].map((m) => [m[1]?.toLowerCase(), m[2]]))
      pending = {
        title: extinfTitle(line),
        logo: attributes.get("tvg-logo") || undefined,
        epgId: attributes.get("tvg-id")?.trim() || undefined
      }
      continue
    }
    if (line.startsWith("#")) continue
    entries.push({ title: pending?.title || line, url: line, logo: pending?.logo, epgId: pending?.epgId })
    pending = undefined
  }
  return entries
}

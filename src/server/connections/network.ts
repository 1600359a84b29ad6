import Bowser from "bowser"
import ipaddr from "ipaddr.js"

/** A network as a viewer may see it: never a whole IPv4 address. */
export function networkLabel(network: string): string {
  if (ipaddr.IPv4.isValidFourPartDecimal(network)) return `${network.split(".").slice(0, 3).join(".")}.*`
  return network.includes("/") ? network : "another network"
}

// Parsing a user agent takes tens of microseconds, and staff see every live viewer's device at
// once; viewers share a handful of browsers, so each is parsed once. Bounded: a flood of made-up
// user agents empties the cache, it does not grow it.
const MAX_LABELS = 2000
const labels = new Map<string, string>()

/** "Chrome on Windows", from a session's user agent; "a device" when it tells nothing. */
export function deviceLabel(userAgent: string | null, isMobile: boolean): string {
  const kind = isMobile ? "a phone or tablet" : "a device"
  if (userAgent === null || userAgent.trim() === "") return kind
  const key = `${isMobile ? "m" : "d"}${userAgent}`
  const known = labels.get(key)
  if (known !== undefined) return known
  if (labels.size >= MAX_LABELS) labels.clear()
  const label = parsedLabel(userAgent, kind)
  labels.set(key, label)
  return label
}

function parsedLabel(userAgent: string, kind: string): string {
  const parser = Bowser.getParser(userAgent)
  const browser = parser.getBrowserName()
  const os = parser.getOSName()
  if (browser === "" && os === "") return kind
  if (browser === "") return `${kind} on ${os}`
  return os === "" ? browser : `${browser} on ${os}`
}

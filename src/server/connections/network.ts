import Bowser from "bowser"
import ipaddr from "ipaddr.js"

/** A network as a viewer may see it: never a whole IPv4 address. */
export function networkLabel(network: string): string {
  if (ipaddr.IPv4.isValidFourPartDecimal(network)) return `${network.split(".").slice(0, 3).join(".")}.*`
  return network.includes("/") ? network : "another network"
}

/** "Chrome on Windows", from a session's user agent; "a device" when it tells nothing. */
export function deviceLabel(userAgent: string | null, isMobile: boolean): string {
  const kind = isMobile ? "a phone or tablet" : "a device"
  if (userAgent === null || userAgent.trim() === "") return kind
  const parser = Bowser.getParser(userAgent)
  const browser = parser.getBrowserName()
  const os = parser.getOSName()
  if (browser === "" && os === "") return kind
  if (browser === "") return `${kind} on ${os}`
  return os === "" ? browser : `${browser} on ${os}`
}

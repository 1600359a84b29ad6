import Bowser from "bowser"
import ipaddr from "ipaddr.js"

/**
 * The network an address belongs to, as households are compared: an IPv4 address as it is (a
 * home shares one behind its router), an IPv6 address by its /64 (a home's devices each get their
 * own addresses within one). IPv4-mapped IPv6 counts as the IPv4 address; anything unreadable is
 * its own network.
 */
export function networkOf(ip: string): string {
  if (!ipaddr.isValid(ip)) return ip
  const address = ipaddr.process(ip)
  if (address.kind() === "ipv4") return address.toString()
  const network = ipaddr.IPv6.networkAddressFromCIDR(`${address.toNormalizedString().split("%")[0]}/64`)
  return `${network.toString()}/64`
}

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

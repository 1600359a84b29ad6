import type { FastifyRequest } from "fastify"
import ipaddr from "ipaddr.js"

/**
 * The network an address belongs to, as households are compared and limits count: an IPv4
 * address as it is (a home shares one behind its router), an IPv6 address by its /64 (a home's
 * devices each get their own addresses within one, and one host can pick any of them).
 * IPv4-mapped IPv6 counts as the IPv4 address; anything unreadable is its own network.
 */
export function networkOf(ip: string): string {
  // most addresses are plain IPv4, as they are or mapped into IPv6: no parsing needed for those
  if (!ip.includes(":")) return ip
  if (ip.startsWith("::ffff:") && ip.includes(".")) return ip.slice(7)
  if (!ipaddr.isValid(ip)) return ip
  const address = ipaddr.process(ip)
  if (address.kind() === "ipv4") return address.toString()
  const network = ipaddr.IPv6.networkAddressFromCIDR(`${address.toNormalizedString().split("%")[0]}/64`)
  return `${network.toString()}/64`
}

/**
 * The client's network for a request. A request whose connection is already gone has no address
 * left to read (a client that sent more than it announced); it is counted as "unknown".
 */
export function requestNetwork(request: FastifyRequest): string {
  const ip = request.ip ?? request.socket?.remoteAddress
  return ip === undefined ? "unknown" : networkOf(ip)
}

/**
 * What a Low-Latency HLS blocking playlist reload (`_HLS_msn` / `_HLS_part`) asks for, decided
 * against the simulated clock: answer now, hold the response until a given moment, or refuse.
 */
import { reloadAsked } from "../http/hlsQuery.ts"
import { type LowLatencyClock, liveEdge, partCount, partEndsAt, partTargetOf } from "./lowLatencyPlaylist.ts"

export type ReloadDecision =
  | { readonly kind: "now" }
  /** epoch ms at which the requested part or segment is published */
  | { readonly kind: "wait"; readonly until: number }
  | { readonly kind: "bad"; readonly detail: string }

/**
 * The spec's Advance Part Limit: a client may run at most this many parts ahead of the last
 * published one (three seconds' worth for sub-second parts, three parts otherwise).
 */
const advancePartLimit = (partTarget: number): number => (partTarget < 1 ? 3 / partTarget : 3)

export const reloadDecision = (clock: LowLatencyClock, msnValue: unknown, partValue: unknown): ReloadDecision => {
  const asked = reloadAsked({ _HLS_msn: msnValue, _HLS_part: partValue })
  if (asked.kind === "bad") return asked
  const { msn, part } = asked
  if (msn === undefined) return { kind: "now" }
  const edge = liveEdge(clock)
  // The spec allows waiting for at most two segments past the last complete one.
  if (msn > edge.sequence + 1) return { kind: "bad", detail: "_HLS_msn is too far in the future" }
  const parts = partCount(clock, msn)
  // A whole segment, or a part index past its last part, is out once the segment is complete.
  const wanted = part === undefined || part >= parts ? parts - 1 : part
  if (msn < edge.sequence || (msn === edge.sequence && wanted < edge.parts)) return { kind: "now" }
  const ahead = msn === edge.sequence ? wanted - edge.parts + 1 : partCount(clock, edge.sequence) - edge.parts + wanted + 1
  if (part !== undefined && part < parts && ahead > advancePartLimit(partTargetOf(clock.segments))) {
    return { kind: "bad", detail: "_HLS_part is too far in the future" }
  }
  return { kind: "wait", until: partEndsAt(clock, msn, wanted) }
}

import { LOW_LATENCY_PLAYER, TV_PLAYER } from "./playerChoice.ts"
import type { PlayerChoice } from "./Stream.ts"

/** `?default=N` (SPEC §2): a stream index; anything else starts the first stream. */
export const parseStreamIndex = (raw: string | null): number => {
  const index = Number.parseInt(raw ?? "0", 10)
  return Number.isInteger(index) && index >= 0 ? index : 0
}

/** The player page a URL opens, or null when it is not a player page. */
export const playerPageOf = (pathname: string, search: string): { readonly player: PlayerChoice; readonly index: number } | null => {
  const match = /^\/(player|playersldp)\/?$/.exec(pathname)
  if (match === null) return null
  return {
    player: match[1] === "player" ? TV_PLAYER : LOW_LATENCY_PLAYER,
    index: parseStreamIndex(new URLSearchParams(search).get("default"))
  }
}

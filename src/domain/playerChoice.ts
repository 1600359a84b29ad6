import type { PlayerChoice, Stream } from "./Stream.ts"

// Kept free of the schema library so a player page can start its stream before that loads.

export const DEFAULT_PLAYER_CHOICE: PlayerChoice = 2
export const TV_PLAYER: PlayerChoice = 1
export const LOW_LATENCY_PLAYER: PlayerChoice = 2

export const playerPath = (choice: PlayerChoice): "/player" | "/playersldp" => (choice === TV_PLAYER ? "/player" : "/playersldp")

/** The TV player plays `src`; the low-latency one prefers `src_sldp` (SPEC §3). Null: nothing to play. */
export const sourceFor = (stream: Pick<Stream, "src" | "src_sldp"> | undefined, player: PlayerChoice): string | null => {
  if (stream === undefined) return null
  const source = player === TV_PLAYER ? stream.src : (stream.src_sldp ?? stream.src)
  return source === null || source === "" ? null : source
}

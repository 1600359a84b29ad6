import { VOLUME_TICKS } from "../../domain/PlayerLimits.ts"

/**
 * Player numbers SPEC §9 leaves to us. The spec's own (live edge, poll, DVR window, seek step,
 * hide delay, tick counts) are in domain/PlayerLimits.ts.
 */
export const PLAYER_TUNING = {
  /** fatal library errors retried before the error box shows */
  recoveryAttempts: 3,
  /** first retry delay; each later one doubles, so a dead source shows its error within seconds */
  recoveryDelayMs: 500,
  /** a second tap within this long is a double tap */
  doubleTapMs: 300,
  /** player widths (px) below which the volume shows fewer ticks */
  smallWidth: 640,
  tinyWidth: 400
} as const

export type PlayerSize = "normal" | "small" | "tiny"

export const sizeForWidth = (width: number): PlayerSize =>
  width < PLAYER_TUNING.tinyWidth ? "tiny" : width < PLAYER_TUNING.smallWidth ? "small" : "normal"

export const volumeTicksFor = (size: PlayerSize): number => VOLUME_TICKS[size]

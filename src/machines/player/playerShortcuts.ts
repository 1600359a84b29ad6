import { TOUCH_SEEK_S } from "../../domain/constants.ts"
import { hasUiFlag } from "../../domain/PlayerUi.ts"
import type { PlayerEvent } from "./playerEvents.ts"

/**
 * Keyboard shortcuts while the player has focus: space/k play-pause, m mute, f fullscreen,
 * ←/→ seek 5 s, ↑/↓ volume. What the UI flags hide has no shortcut either.
 */
export const shortcutFor = (key: string, ui: number): PlayerEvent | null => {
  if (hasUiFlag(ui, "NO_CONTROLS")) return null
  switch (key) {
    case " ":
    case "k":
    case "K":
      return { type: "player.togglePlay" }
    case "m":
    case "M":
      return hasUiFlag(ui, "NO_MUTE") ? null : { type: "volume.toggleMute" }
    case "f":
    case "F":
      return hasUiFlag(ui, "NO_FULLSCREEN") ? null : { type: "screen.toggleFullscreen" }
    case "ArrowLeft":
      return { type: "player.seekBy", seconds: -TOUCH_SEEK_S }
    case "ArrowRight":
      return { type: "player.seekBy", seconds: TOUCH_SEEK_S }
    case "ArrowUp":
      return hasUiFlag(ui, "NO_VOLUME") ? null : { type: "volume.step", by: 1 }
    case "ArrowDown":
      return hasUiFlag(ui, "NO_VOLUME") ? null : { type: "volume.step", by: -1 }
    default:
      return null
  }
}

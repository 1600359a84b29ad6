import { TOUCH_SEEK_S } from "../../domain/PlayerLimits.ts"
import type { PlayerChrome } from "../../domain/PlayerUi.ts"
import type { PlayerEvent } from "./playerEvents.ts"

/**
 * Keyboard shortcuts while the player has focus: space/k play-pause, m mute, f fullscreen,
 * ←/→ seek 5 s, ↑/↓ volume. What the UI flags hide has no shortcut either.
 */
export const shortcutFor = (key: string, chrome: PlayerChrome): PlayerEvent | null => {
  if (!chrome.controls) return null
  switch (key) {
    case " ":
    case "k":
    case "K":
      return { type: "player.togglePlay" }
    case "m":
    case "M":
      return !chrome.mute ? null : { type: "volume.toggleMute" }
    case "f":
    case "F":
      return !chrome.fullscreen ? null : { type: "screen.toggleFullscreen" }
    case "ArrowLeft":
      return { type: "player.seekBy", seconds: -TOUCH_SEEK_S }
    case "ArrowRight":
      return { type: "player.seekBy", seconds: TOUCH_SEEK_S }
    case "ArrowUp":
      return !chrome.volume ? null : { type: "volume.step", by: 1 }
    case "ArrowDown":
      return !chrome.volume ? null : { type: "volume.step", by: -1 }
    default:
      return null
  }
}

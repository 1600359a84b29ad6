import * as header from "../shell/Header.css.ts"
import * as layout from "../shell/Layout.css.ts"
import "../shared/theme.css.ts"
import * as stage from "./PlayerStage.css.ts"
import * as view from "./PlayerView.css.ts"

const box = (tag: string, className: string, ...children: Array<Element>): HTMLElement => {
  const element = document.createElement(tag)
  element.className = className
  element.append(...children)
  return element
}

/**
 * The player page's frame, drawn with the page's own classes before the app exists, so the
 * picture already sits where the real player will put it. Once shown, the app renders hidden
 * meanwhile and is shown in the same task that removes this.
 */
export const createWarmShell = (root: HTMLElement) => {
  const video = document.createElement("video")
  video.className = stage.video
  video.playsInline = true
  video.preload = "auto"
  const frame = box("div", stage.frame, video)
  const shell = box(
    "div",
    layout.shell,
    box("header", header.header, box("div", header.inner)),
    box("main", layout.main, box("div", view.page, box("section", view.stage, frame)))
  )
  shell.setAttribute("aria-busy", "true")
  return {
    video,
    show: () => {
      root.hidden = true
      root.before(shell)
    },
    remove: () => {
      shell.remove()
      root.hidden = false
    }
  }
}

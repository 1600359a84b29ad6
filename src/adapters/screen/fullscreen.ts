import { fromCallback } from "xstate"
import type { FullscreenCommand, FullscreenInput } from "../../domain/ScreenProtocol.ts"

type WebkitDocument = Document & {
  readonly webkitFullscreenEnabled?: boolean
  readonly webkitFullscreenElement?: Element | null
  readonly webkitExitFullscreen?: () => void
}
type WebkitContainer = HTMLElement & { readonly webkitRequestFullscreen?: () => void }
/** iOS Safari can only put the video itself fullscreen, with its own controls. */
type WebkitVideo = HTMLVideoElement & {
  readonly webkitEnterFullscreen?: () => void
  readonly webkitExitFullscreen?: () => void
  readonly webkitDisplayingFullscreen?: boolean
}

const ignore = (result: unknown): void => {
  if (result instanceof Promise) result.catch(() => undefined)
}

/**
 * The player's box on screen: fullscreen (the whole box, so our controls stay; the bare video on
 * iOS), its width (the volume's tick count depends on it) and whether the pointer is coarse.
 */
export const createFullscreenActor = () =>
  fromCallback<FullscreenCommand, FullscreenInput>(({ input, sendBack, receive }) => {
    const container = input.container as WebkitContainer
    const video = input.element as WebkitVideo
    const doc = container.ownerDocument as WebkitDocument
    const boxApi = doc.fullscreenEnabled === true || doc.webkitFullscreenEnabled === true
    const videoApi = typeof video.webkitEnterFullscreen === "function"
    const isActive = (): boolean =>
      (doc.fullscreenElement ?? doc.webkitFullscreenElement ?? null) === container || video.webkitDisplayingFullscreen === true
    const onChange = (): void => sendBack({ type: "screen.fullscreenChanged", active: isActive() })

    sendBack({ type: "screen.fullscreenAvailable", available: boxApi || videoApi })
    const changes: Array<[EventTarget, string]> = [
      [doc, "fullscreenchange"],
      [doc, "webkitfullscreenchange"],
      [video, "webkitbeginfullscreen"],
      [video, "webkitendfullscreen"]
    ]
    for (const [target, name] of changes) target.addEventListener(name, onChange)

    const reportWidth = (width: number): void => {
      if (width > 0) sendBack({ type: "screen.resized", width })
    }
    // the observer reports the first size by itself, without forcing a layout in the middle of a render
    const observer =
      typeof ResizeObserver === "function" ? new ResizeObserver((entries) => reportWidth(entries[0]?.contentRect.width ?? 0)) : undefined
    observer?.observe(container)

    const coarse = doc.defaultView?.matchMedia?.("(pointer: coarse)")
    const onPointer = (): void => sendBack({ type: "screen.pointer", touch: coarse?.matches === true })
    if (coarse !== undefined) {
      onPointer()
      coarse.addEventListener?.("change", onPointer)
    }

    receive((command) => {
      if (command.type === "fullscreen.enter") {
        if (typeof container.requestFullscreen === "function" && boxApi) ignore(container.requestFullscreen())
        else if (typeof container.webkitRequestFullscreen === "function" && boxApi) container.webkitRequestFullscreen()
        else video.webkitEnterFullscreen?.()
      } else if (doc.fullscreenElement != null) ignore(doc.exitFullscreen())
      else if (doc.webkitFullscreenElement != null) doc.webkitExitFullscreen?.()
      else video.webkitExitFullscreen?.()
    })
    return () => {
      for (const [target, name] of changes) target.removeEventListener(name, onChange)
      observer?.disconnect()
      coarse?.removeEventListener?.("change", onPointer)
    }
  })

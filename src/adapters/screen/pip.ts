import { fromCallback } from "xstate"
import type { PipCommand, PipInput } from "../../domain/ScreenProtocol.ts"

/** Safari's older presentation-mode API, still the only one on iOS. */
type WebkitVideo = HTMLVideoElement & {
  readonly webkitSupportsPresentationMode?: (mode: string) => boolean
  readonly webkitSetPresentationMode?: (mode: string) => void
  readonly webkitPresentationMode?: string
}

const ignore = (result: unknown): void => {
  if (result instanceof Promise) result.catch(() => undefined)
}

/** Picture-in-picture for the player's video, where the browser has it. */
export const createPipActor = () =>
  fromCallback<PipCommand, PipInput>(({ input, sendBack, receive }) => {
    const video = input.element as WebkitVideo
    const doc = video.ownerDocument
    const standard = doc.pictureInPictureEnabled === true && typeof video.requestPictureInPicture === "function"
    const webkit =
      typeof video.webkitSetPresentationMode === "function" && video.webkitSupportsPresentationMode?.("picture-in-picture") === true
    const isActive = (): boolean => doc.pictureInPictureElement === video || video.webkitPresentationMode === "picture-in-picture"
    const onChange = (): void => sendBack({ type: "screen.pipChanged", active: isActive() })

    sendBack({ type: "screen.pipAvailable", available: (standard && !video.disablePictureInPicture) || webkit })
    const changes = ["enterpictureinpicture", "leavepictureinpicture", "webkitpresentationmodechanged"]
    for (const name of changes) video.addEventListener(name, onChange)

    receive((command) => {
      if (command.type === "pip.enter") {
        if (standard) ignore(video.requestPictureInPicture())
        else video.webkitSetPresentationMode?.("picture-in-picture")
      } else if (doc.pictureInPictureElement === video) ignore(doc.exitPictureInPicture())
      else video.webkitSetPresentationMode?.("inline")
    })
    return () => {
      for (const name of changes) video.removeEventListener(name, onChange)
    }
  })

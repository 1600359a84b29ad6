export interface ShareData {
  readonly title: string
  readonly text: string
  readonly url: string
}

interface ShareNavigator {
  readonly share?: (data: ShareData) => Promise<void>
  readonly canShare?: (data: ShareData) => boolean
}

/** Whether the browser can hand a link to the device's share sheet (the Web Share API). */
export const canShareLinks = (nav: ShareNavigator | undefined = globalThis.navigator): boolean =>
  typeof nav?.share === "function" &&
  (typeof nav.canShare !== "function" || nav.canShare({ title: "", text: "", url: "https://example.com/" }))

export type ShareOutcome = "shared" | "dismissed"

/** Opens the share sheet; a person closing it is no failure ("dismissed"), anything else rejects. */
export const shareLink = async (data: ShareData, nav: ShareNavigator | undefined = globalThis.navigator): Promise<ShareOutcome> => {
  if (typeof nav?.share !== "function") throw new Error("This browser cannot share links")
  try {
    await nav.share(data)
    return "shared"
  } catch (error) {
    if (error instanceof Error && error.name === "AbortError") return "dismissed"
    throw error
  }
}

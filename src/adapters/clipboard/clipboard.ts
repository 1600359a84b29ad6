interface ClipboardNavigator {
  readonly clipboard?: { writeText(text: string): Promise<void> }
}

/**
 * Puts text on the clipboard; rejects where the browser has no asynchronous clipboard (an
 * insecure context) or refuses it (permission denied, the page not focused).
 */
export const writeClipboardText = async (text: string, nav: ClipboardNavigator | undefined = globalThis.navigator): Promise<void> => {
  if (nav?.clipboard === undefined) throw new Error("This browser offers no clipboard to this page")
  await nav.clipboard.writeText(text)
}

interface NavigatorWithUaData {
  readonly userAgent?: string
  readonly userAgentData?: { readonly mobile?: boolean }
}

/** The server records per session whether it is a phone; UA client hints first, the UA string otherwise. */
export const isMobileDevice = (nav: NavigatorWithUaData | undefined = globalThis.navigator): boolean => {
  if (nav === undefined) return false
  if (typeof nav.userAgentData?.mobile === "boolean") return nav.userAgentData.mobile
  return /Mobi|Android|iPhone|iPad|iPod/i.test(nav.userAgent ?? "")
}

/** Media errors (SPEC §8), by code. */
export const MediaErrorCode = { ABORTED: 1, NETWORK: 2, DECODE: 3, SRC_NOT_SUPPORTED: 4, MIXED_CONTENT: 1001, NO_INTERNET: 1002 } as const
export type MediaErrorCode = (typeof MediaErrorCode)[keyof typeof MediaErrorCode]

export const mediaErrorMessage = (code: number): string => {
  switch (code) {
    case MediaErrorCode.ABORTED:
      return "Playback aborted"
    case MediaErrorCode.NETWORK:
      return "A network error occurred"
    case MediaErrorCode.DECODE:
      return "Unable to decode media content"
    case MediaErrorCode.SRC_NOT_SUPPORTED:
      return "Unsupported media type"
    case MediaErrorCode.NO_INTERNET:
      return "No internet connection detected"
    case MediaErrorCode.MIXED_CONTENT:
      return "Cannot load insecure content in a secure context"
    default:
      return "An unknown error occurred"
  }
}

/** Which error a failed source load means: mixed content, then offline, then network. */
export const loadErrorCode = (sourceUrl: string, pageProtocol: string, online: boolean): MediaErrorCode => {
  if (pageProtocol === "https:" && sourceUrl.startsWith("http:")) return MediaErrorCode.MIXED_CONTENT
  return online ? MediaErrorCode.NETWORK : MediaErrorCode.NO_INTERNET
}

/**
 * The player's video element. It is created here rather than rendered by React so that one
 * already playing (a player page's warm start) can take its place without a reload.
 */
export const createVideoElement = (container: HTMLElement): HTMLVideoElement => {
  const video = document.createElement("video")
  video.playsInline = true
  video.preload = "auto"
  container.prepend(video)
  return video
}

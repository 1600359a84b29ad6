// The players' numbers of SPEC §9. Kept free of the schema library: a player page's warm start
// runs before that library loads.

/** A live stream within this many seconds of its edge counts as at the live edge. */
export const LIVE_EDGE_TOLERANCE_S = 10
export const LIVE_POLL_MS = 200
/** Seeking in a live stream needs at least this much window (DVR). */
export const DVR_MIN_WINDOW_S = 60
/** A double tap on a touch zone seeks this far. */
export const TOUCH_SEEK_S = 5
export const CONTROLS_HIDE_MS = 2000
/** Behind live, a viewer who asks to catch up plays this much faster until within the live edge's tolerance. */
export const CATCH_UP_RATE = 1.1

export const VOLUME_TICKS = { normal: 10, small: 8, tiny: 6 } as const

/** The low-latency player's settings: initial rendition 1080p, 500 ms of buffering, autoplay on. */
export const LOW_LATENCY = { initialRendition: 1080, bufferingMs: 500, autoplay: true } as const

// The numbers of the player's analytics and health reporting (SPEC §9).

export const PLAYER_VERSION = "3.4.5"

export const ANALYTICS_MAX_PENDING = 5
export const ANALYTICS_MAX_OPEN_REQUESTS = 3
export const ANALYTICS_REQUEST_TIMEOUT_MS = 4000
/** After more failures than this in a row, analytics pause. */
export const ANALYTICS_FAILURES_BEFORE_PAUSE = 3
export const ANALYTICS_PAUSE_MS = 5000

/** A VOD's progress is reported in this many equal slices. */
export const VOD_PROGRESS_SEGMENTS = 100
export const PING_THROTTLE_MS = 6000
/** The end of a video is reached within this many seconds of its duration. */
export const END_OF_VIDEO_TOLERANCE_S = 0.25
/** A live stream pings once a minute, adding a minute per tick. */
export const LIVE_PING_INTERVAL_S = 60

export const HEALTH_FLUSH_MS = 2000
export const HEALTH_FLUSH_EVENTS = 10
/** Volume and resize events: only the last of a burst within this long is kept. */
export const HEALTH_DEBOUNCE_MS = 800
export const HEALTH_TIME_UPDATE_MS = 5000

/** Health records one request may carry; the player sends 10 at a time. */
export const HEALTH_EVENTS_PER_REQUEST = 50
/** Longest id-like text of a health record: session, device, version, event, ids, plugin names. */
export const HEALTH_ID_MAX_LENGTH = 64
/** Longest URL of a health record: the page and the stream's source. */
export const HEALTH_URL_MAX_LENGTH = 2048
/** Longest session token a beacon may carry (they are 43 characters). */
export const HEALTH_TOKEN_MAX_LENGTH = 128

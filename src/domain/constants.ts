/** Business constants and limits (SPEC §9). */
export const HEADER_HEIGHT = 60
export const TOKEN_STORAGE_KEY = "Token"
export const ANNOUNCEMENT_STORAGE_KEY = "announcementToken"
export const PLAYER_CHOICE_STORAGE_KEY = "streamPlayer"
export const NOTIFICATION_AUTO_CLOSE_MS = 4000
export const NOTIFICATION_MAX = 5

export const PRICE_NOTE_PER_MONTH = 5
export const REWARD_POINTS_PER_INVITE = 1
export const DATE_LOCALE = "en-GB"
export const PAYMENT_PROVIDER_FEE = 0.65
export const REPORT_MONTH_DAYS = 30
export const SCHEDULE_DAYS = 7
export const TICKET_STATUS_COUNT = 3
export const TICKET_CATEGORY_COUNT = 5

export const PASSWORD_MIN_LENGTH = 8
export const TICKET_SUBJECT_MIN_LENGTH = 1
export const TICKET_DESCRIPTION_MIN_LENGTH = 6

/** Grid columns by viewport: 5 by default, fewer below each breakpoint (px). */
export const GRID_COLUMNS = { default: 5, below1500: 4, below1200: 3, below900: 2, below600: 1 } as const
export const BREAKPOINTS = { small: 600, medium: 900, large: 1200, xlarge: 1500 } as const

export const PLAYER_VERSION = "3.4.5"
export const ANALYTICS_MAX_PENDING = 5
export const ANALYTICS_MAX_OPEN_REQUESTS = 3
export const ANALYTICS_REQUEST_TIMEOUT_MS = 4000
export const ANALYTICS_FAILURES_BEFORE_PAUSE = 3
export const ANALYTICS_PAUSE_MS = 5000
export const VOD_PROGRESS_SEGMENTS = 100
export const PING_THROTTLE_MS = 6000
export const END_OF_VIDEO_TOLERANCE_S = 0.25
export const LIVE_PING_INTERVAL_S = 60

export const HEALTH_FLUSH_MS = 2000
export const HEALTH_FLUSH_EVENTS = 10
export const HEALTH_DEBOUNCE_MS = 800
export const HEALTH_TIME_UPDATE_MS = 5000

export const LIVE_EDGE_TOLERANCE_S = 10
export const LIVE_POLL_MS = 200
export const DVR_MIN_WINDOW_S = 60
export const TOUCH_SEEK_S = 5
export const CONTROLS_HIDE_MS = 2000

export const VOLUME_TICKS = { normal: 10, small: 8, tiny: 6 } as const

export const LOW_LATENCY = { initialRendition: 1080, bufferingMs: 500, autoplay: true } as const

/** Date pickers: weeks start on Monday; days are 0 = Sunday … 6 = Saturday, as Date#getDay. */
export const DATE_PICKER = {
  firstDayOfWeek: 1,
  weekendDays: [0, 6],
  labelFormat: "MMMM YYYY",
  yearsPerPage: 12,
  minYear: 100,
  maxYear: 10000,
  rangeMonths: 2
} as const

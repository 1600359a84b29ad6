/** The header's height in px (SPEC §9). */
export const HEADER_HEIGHT = 60

/** Viewport widths (px) below which the layout steps down (SPEC §2). */
export const BREAKPOINTS = { small: 600, medium: 900, large: 1200, xlarge: 1500 } as const

/** Streams grid columns: 5 by default, fewer below each breakpoint (SPEC §2, §9). */
export const GRID_COLUMNS = { default: 5, below1500: 4, below1200: 3, below900: 2, below600: 1 } as const

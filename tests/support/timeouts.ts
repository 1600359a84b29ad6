/**
 * Every wait of the test suite, in one place, sized for a slow machine: two cores running two
 * copies of the suite side by side, with a load average of 4 to 12. A wait ends as soon as what it
 * waits for holds, so a generous bound costs nothing when the code works: it only makes a failure
 * take longer to report. None of these is a speed target; those belong to `npm run bench`.
 *
 * vite.config.ts gives them to vitest (test and hook timeouts, expect.poll); uiSetup.ts to Testing
 * Library; e2eHarness.ts to Playwright and to the server's start. Tests use them where a library
 * has no default of its own to set (vi.waitFor) and for waits of their own.
 */

/**
 * How long something a test expects may take to happen: expect.poll, vi.waitFor, Testing Library's
 * find and waitFor, Playwright's waits (a player reaching its first frame included), a mail to arrive.
 */
export const WAIT_MS = 30_000

/** How often a poll asks again. */
export const POLL_INTERVAL_MS = 50

/** For `vi.waitFor`, whose default (one second) cannot be configured. */
export const WAIT = { timeout: WAIT_MS, interval: POLL_INTERVAL_MS } as const

/** How long the built server may take to answer its first request after it was spawned. */
export const SERVER_START_MS = 120_000

/**
 * How long one test, and one hook, may run before vitest declares it hung, per project. Each is
 * well above the waits inside it, so a wait that fails reports what it waited for.
 */
export const TEST_TIMEOUT_MS = { unit: 60_000, ui: 60_000, server: 120_000, e2e: 180_000 } as const
export const HOOK_TIMEOUT_MS = { unit: 60_000, ui: 60_000, server: 180_000, e2e: 240_000 } as const

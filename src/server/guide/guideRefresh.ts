import { hostname } from "node:os"
import type { Kysely } from "kysely"
import { releaseLease, THIS_PROCESS, takeLease } from "../db/jobLease.ts"
import type { Tables } from "../db/schema.ts"
import type { Job } from "../http/serverFeature.ts"
import { keepDemoGuideAhead } from "./demoGuide.ts"
import { pruneProgrammes } from "./guideImportRepo.ts"
import { describeSource, guideText } from "./guideSource.ts"
import { type GuideImportResult, importGuide } from "./importGuide.ts"
import { describeFailure, describeImport } from "./importReport.ts"

const MINUTE = 60_000
const HOUR = 60 * MINUTE
export const GUIDE_REFRESH_LEASE = "guide-refresh"
/** Programmes ended this long ago are removed; the guide page starts at today. */
const KEEP_PAST_MS = 3 * 24 * HOUR
// The holder keeps its lease a little past its own next run, so only a holder that died (or
// stopped, which releases it) lets another instance take over.
const LEASE_GRACE_MS = 15 * MINUTE

export interface RefreshLog {
  info(message: string): void
  warn(message: string): void
}

export interface GuideRefreshOptions {
  readonly db: Kysely<Tables>
  /** Epoch ms. */
  readonly now: () => number
  readonly log: RefreshLog
  /** The site setting `guideUrl`, read at each run; "" imports nothing. */
  readonly guideUrl: () => Promise<string>
  readonly everyMs?: number
  /** Delay of the run on start, so start-up and the first requests go first. */
  readonly firstAfterMs?: number
  /** Names this instance in the lease; unique per process by default. */
  readonly holder?: string
}

export interface GuideRefreshRun {
  /** False when another instance holds the lease: it does the refresh. */
  readonly ran: boolean
  readonly demoProgrammes?: number
  readonly imported?: GuideImportResult
  /** Why the import failed; the guide is as it was before. */
  readonly failure?: string
}

export interface GuideRefresh extends Job {
  /** Runs a refresh now (or joins the one running). */
  runNow(): Promise<GuideRefreshRun>
}

/**
 * Keeps the guide current: on start and every 6 hours it tops up the demo channels' generated
 * guide, drops programmes long over and, when the site setting `guideUrl` is set, imports it.
 * With several instances on one database, the one holding the lease does this; a failure is
 * logged and leaves the last good guide in place.
 */
export function startGuideRefresh(options: GuideRefreshOptions): GuideRefresh {
  const { db, now, log } = options
  const everyMs = options.everyMs ?? 6 * HOUR
  const holder = options.holder ?? `${hostname()}:${process.pid}:${THIS_PROCESS}`
  const abort = new AbortController()
  let stopped = false
  let running: Promise<GuideRefreshRun> | undefined
  let timer: NodeJS.Timeout | undefined

  const schedule = (delayMs: number) => {
    if (stopped) return
    timer = setTimeout(() => void runNow().finally(() => schedule(everyMs)), delayMs)
    timer.unref()
  }

  const refresh = async (): Promise<GuideRefreshRun> => {
    const started = now()
    const lease = { name: GUIDE_REFRESH_LEASE, holder, now: started, until: started + everyMs + LEASE_GRACE_MS }
    if (!(await takeLease(db, lease))) return { ran: false }
    const demoProgrammes = await keepDemoGuideAhead(db, started)
    await pruneProgrammes(db, new Date(started - KEEP_PAST_MS).toISOString())
    const url = (await options.guideUrl()).trim()
    if (url === "") return { ran: true, demoProgrammes }
    const source = { url }
    const clock = performance.now()
    try {
      const imported = await importGuide(db, guideText(source, abort.signal), { now: started })
      log.info(`guide refresh: ${describeImport(imported, describeSource(source), performance.now() - clock)}`)
      return { ran: true, demoProgrammes, imported }
    } catch (error) {
      if (abort.signal.aborted) return { ran: true, demoProgrammes, failure: "stopped" }
      const failure = describeFailure(error, describeSource(source))
      log.warn(`guide refresh failed, the guide is unchanged: ${failure}`)
      return { ran: true, demoProgrammes, failure }
    }
  }

  const runNow = (): Promise<GuideRefreshRun> => {
    running ??= refresh()
      .catch((error: unknown) => {
        const failure = error instanceof Error ? error.message : String(error)
        log.warn(`guide refresh failed; the next run tries again: ${failure}`)
        return { ran: true, failure }
      })
      .finally(() => {
        running = undefined
      })
    return running
  }

  schedule(options.firstAfterMs ?? 5_000)

  return {
    runNow,
    async stop() {
      stopped = true
      if (timer !== undefined) clearTimeout(timer)
      abort.abort()
      await running
      await releaseLease(db, { name: GUIDE_REFRESH_LEASE, holder, now: now() }).catch(() => undefined)
    }
  }
}

/**
 * What an operator's tools ask of a running instance: whether it is alive (`/healthz`, nothing
 * but the process) and whether it can serve (`/readyz`: the database answers and its schema is
 * this version's). Neither needs a session nor says anything about accounts or streams. With
 * METRICS_TOKEN set, `/metrics` too (see metrics.ts).
 */
import type { Command } from "../cli/command.ts"
import { migrations } from "../db/migrations.ts"
import type { FeatureDeps, ServerFeature } from "../http/serverFeature.ts"
import { backupCommands } from "./backupCommands.ts"
import { dbCopy } from "./dbCopyCommand.ts"
import { registerMetrics } from "./metrics.ts"
import { type ReadinessCheck, readiness } from "./readiness.ts"
import { startScheduledBackups } from "./scheduledBackups.ts"

// a load balancer may ask every second from several places: one reading serves them all for this long
const READY_FOR_MS = 1000

export function operationsFeature({ db, config, now, log, onQuery }: FeatureDeps): ServerFeature {
  const backups = startScheduledBackups({
    db,
    location: config,
    dir: config.backup.dir,
    keep: config.backup.keep,
    now,
    onDone: (file) => log.info(`daily backup written to ${file}`),
    onError: (error) => log.error({ err: error }, "the daily backup failed; the next hour tries again")
  })
  const known = Object.keys(migrations("sqlite"))
  let last: { readonly at: number; readonly checks: Promise<Array<ReadinessCheck>> } | undefined
  const checks = (): Promise<Array<ReadinessCheck>> => {
    const at = performance.now()
    if (last === undefined || at - last.at > READY_FOR_MS) last = { at, checks: readiness(db, known, now()) }
    return last.checks
  }
  return {
    jobs: backups === undefined ? [] : [backups],
    async routes(app) {
      if (config.metricsToken !== undefined) registerMetrics(app, { db, onQuery, token: config.metricsToken, now })
      // without a token there are no metrics: not the single-page app either
      else app.get("/metrics", async (_request, reply) => reply.code(404).send({ success: false, status: 404, detail: "Not found" }))
      app.get("/healthz", async (_request, reply) => reply.header("Cache-Control", "no-store").send({ status: "alive" }))
      app.get("/readyz", async (_request, reply) => {
        const found = await checks()
        const ready = found.every((check) => check.ok)
        return reply
          .code(ready ? 200 : 503)
          .header("Cache-Control", "no-store")
          .send({ status: ready ? "ready" : "not ready", checks: found })
      })
    }
  }
}

/** Backing up, checking and restoring the database, and moving it from SQLite to PostgreSQL. */
export const operationsCommands: ReadonlyArray<Command> = [...backupCommands, dbCopy]

import { buildApp } from "./app.ts"
import { ConfigError, loadConfig } from "./config.ts"
import { openDatabase } from "./db/database.ts"
import { autovacuumWarning } from "./db/freePages.ts"
import { DatabaseNewerThanCode, migrateToLatest } from "./db/migrations.ts"
import { withStartupLock } from "./db/startupLock.ts"
import { serverLogger } from "./logOutput.ts"
import { mailDelivery } from "./mail/mailFeature.ts"
import { seed } from "./seed.ts"
import { serverAddress } from "./shell/shellFeature.ts"

async function main(): Promise<void> {
  const config = loadConfig(process.env)
  const db = await openDatabase({ dataDir: config.dataDir, databaseUrl: config.databaseUrl })
  let app: Awaited<ReturnType<typeof buildApp>> | undefined
  let worker: ReturnType<typeof mailDelivery.startWorker> | undefined
  let transport: ReturnType<typeof mailDelivery.createTransport> | undefined
  // Requests stop first, then the mail in flight is recorded, and only then does the database go.
  const closeAll = async () => {
    await app?.close()
    await worker?.stop()
    transport?.close()
    await db.close()
  }
  let stopping = false

  const stop = async (signal: string) => {
    if (stopping) return
    stopping = true
    console.log(`${signal}: shutting down`)
    // Stop taking requests and let running ones finish before the database goes away.
    const timer = setTimeout(() => {
      console.error("shutdown took too long; exiting")
      process.exit(1)
    }, 10_000)
    timer.unref()
    try {
      await closeAll()
    } finally {
      process.exit(0)
    }
  }
  process.once("SIGINT", () => void stop("SIGINT"))
  process.once("SIGTERM", () => void stop("SIGTERM"))

  try {
    // Instances started together on one PostgreSQL take turns here: the first migrates and seeds,
    // the others find it done (and print no second set of staff credentials).
    await withStartupLock(
      db,
      async () => {
        await migrateToLatest(db)
        await seed(db.kysely, { out: (text) => console.log(text), publicUrl: config.publicUrl, mediaDir: config.mediaDir })
        await serverAddress.remember(db.kysely, { publicUrl: config.publicUrl, startedAt: new Date().toISOString() })
      },
      { onWait: () => console.log("Another instance is starting on this database; waiting for it to finish migrating and seeding") }
    )
    // The worker logs through the app's logger, so it starts after the app; until then a wake-up
    // has nothing to wake, and the worker's first pass sends whatever is pending anyway.
    app = await buildApp({
      config,
      db,
      logger: serverLogger(process.env.LOG_LEVEL ?? "info", config.logFormat),
      mail: { wake: () => worker?.wake() }
    })
    const vacuum = await autovacuumWarning(db.kysely)
    if (vacuum !== undefined) app.log.warn(vacuum)
    transport = mailDelivery.createTransport(config, app.log)
    worker = mailDelivery.startWorker({ db: db.kysely, transport, logger: app.log })
    await app.listen({ port: config.port, host: config.host })
  } catch (error) {
    await closeAll().catch(() => undefined)
    throw error
  }
  const address = app.server.address()
  const port = typeof address === "object" && address !== null ? address.port : config.port
  const shownHost = config.host === "0.0.0.0" || config.host === "::" ? "localhost" : config.host
  console.log(`StreamHub is running at http://${shownHost.includes(":") ? `[${shownHost}]` : shownHost}:${port}`)
  console.log(`Database: ${db.dialect === "sqlite" ? `SQLite in ${config.dataDir}` : "PostgreSQL"}; public URL ${config.publicUrl}`)
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    console.error(error.message)
  } else if (error instanceof DatabaseNewerThanCode) {
    console.error(`StreamHub failed to start: ${error.message}`)
  } else if ((error as NodeJS.ErrnoException).code === "EADDRINUSE") {
    console.error(`StreamHub failed to start: ${(error as Error).message}. Another program uses that port; set PORT to a free one.`)
  } else {
    console.error("StreamHub failed to start:", error instanceof Error ? (error.stack ?? error.message) : error)
  }
  process.exit(1)
})

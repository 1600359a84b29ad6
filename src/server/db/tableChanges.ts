import { AliasNode, type KyselyPlugin, type OperationNode, type QueryId, type RootOperationNode, TableNode } from "kysely"
import pg from "pg"
import { TABLE_CHANGES_CHANNEL } from "./migrations/tableVersions.ts"

/** The tables whose changes a server follows, whichever process makes them. */
export type WatchedTable = "streams" | "stream_feeds" | "settings" | "maintenance" | "announcements"

const WATCHED: ReadonlyArray<WatchedTable> = ["streams", "stream_feeds", "settings", "maintenance", "announcements"]

/** PostgreSQL's side of `Db.tableVersion`: counts the changes announced to one listening connection. */
export interface TableChanges {
  /** Undefined until the listener is connected and listening, and whenever it has lost its connection. */
  version(table: WatchedTable): number | undefined
  /** Counts a change this process made, before its announcement comes back. */
  changed(table: WatchedTable): void
  close(): Promise<void>
}

export interface ListenOptions {
  readonly connectionString: string
  /** Connection options, the pool's: the schema is found on the listener's own search_path. */
  readonly options?: string | undefined
  /** How the connection shows in pg_stat_activity. */
  readonly applicationName: string
}

// Reconnecting backs off from the first delay to the last; a server whose database went away
// tries again every few seconds, and meanwhile every caller reads the tables itself.
const FIRST_RETRY_MS = 100
const LAST_RETRY_MS = 5_000
// A connection that died without a word (a dropped network path, a frozen server) sends no
// error: asked now and then and unanswered for this long, it is treated as lost, since its
// announcements would be too. Connecting gets as long.
const PROBE_EVERY_MS = 5_000
const ANSWER_WITHIN_MS = 5_000

/**
 * One connection, opened on the first `version` asked for (a CLI process that never asks opens
 * none), that LISTENs for the changes migration 0012's triggers announce on this schema. A counter
 * per table moves with each announcement. Announcements are sent at commit and only to
 * connections already listening, so one missed while disconnected cannot be told apart from
 * none: every counter moves on each (re)connection, and `version` is undefined in between.
 */
export function listenForTableChanges(listen: ListenOptions): TableChanges {
  const counts = new Map<string, number>(WATCHED.map((table) => [table, 0]))
  const bump = (table: string) => {
    const count = counts.get(table)
    if (count !== undefined) counts.set(table, count + 1)
  }
  let client: pg.Client | undefined
  let listening = false
  let started = false
  let closed = false
  let failures = 0
  let retry: NodeJS.Timeout | undefined
  let probe: NodeJS.Timeout | undefined

  const lost = (from: pg.Client, error?: Error) => {
    if (from !== client) return
    client = undefined
    listening = false
    clearInterval(probe)
    // its socket may already be gone; the handlers stay so a late error has a listener
    from.end().catch(() => undefined)
    if (closed) return
    failures += 1
    // once per outage: a database that is down for a while would otherwise fill the log
    if (failures === 1)
      console.warn(`database: change listener lost its connection (${error?.message ?? "closed"}); reading every time until it is back`)
    retry = setTimeout(() => void connect(), Math.min(LAST_RETRY_MS, FIRST_RETRY_MS * 2 ** (failures - 1)))
    retry.unref()
  }

  const connect = async () => {
    if (closed) return
    const current = new pg.Client({
      connectionString: listen.connectionString,
      ...(listen.options === undefined ? {} : { options: listen.options }),
      application_name: listen.applicationName,
      connectionTimeoutMillis: ANSWER_WITHIN_MS,
      keepAlive: true
    })
    client = current
    let schema: string | undefined
    current.on("error", (error) => lost(current, error))
    current.on("end", () => lost(current))
    current.on("notification", (message) => {
      if (current !== client || message.channel !== TABLE_CHANGES_CHANNEL || message.payload === undefined) return
      // other schemas of the same database announce on the same channel
      const dot = message.payload.indexOf(".")
      if (dot > 0 && message.payload.slice(0, dot) === schema) bump(message.payload.slice(dot + 1))
    })
    try {
      await current.connect()
      // the connection must not hold a finished process open; close() ends it when asked. pg's
      // pool unrefs its idle clients the same way (allowExitOnIdle); the method is untyped.
      ;(current as pg.Client & { unref(): void }).unref()
      const { rows } = await current.query<{ schema: string }>("select current_schema() as schema")
      schema = rows[0]?.schema
      await current.query(`listen ${TABLE_CHANGES_CHANNEL}`)
    } catch (error) {
      lost(current, error instanceof Error ? error : new Error(String(error)))
      return
    }
    if (current !== client) return
    // whatever changed before the LISTEN took effect was not announced to it
    for (const table of counts.keys()) bump(table)
    listening = true
    if (failures > 0) console.warn("database: change listener is back")
    failures = 0
    probe = setInterval(() => void probeConnection(current), PROBE_EVERY_MS)
    probe.unref()
  }

  const probeConnection = async (current: pg.Client) => {
    let timer: NodeJS.Timeout | undefined
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error("no answer to a probe")), ANSWER_WITHIN_MS)
      timer.unref()
    })
    try {
      await Promise.race([current.query("select 1"), timeout])
    } catch (error) {
      lost(current, error instanceof Error ? error : new Error(String(error)))
    } finally {
      clearTimeout(timer)
    }
  }

  return {
    version(table) {
      if (!started) {
        started = true
        void connect()
      }
      return listening ? counts.get(table) : undefined
    },
    changed: bump,
    async close() {
      closed = true
      clearTimeout(retry)
      clearInterval(probe)
      const current = client
      client = undefined
      listening = false
      await current?.end().catch(() => undefined)
    }
  }
}

/**
 * Counts this process's own writes to a watched table as soon as each statement succeeds, so the
 * process reads its own writes at once rather than after their announcement's round trip. A
 * write inside a transaction counts before its commit; its announcement then counts it again.
 */
export function countOwnWrites(changes: TableChanges): KyselyPlugin {
  const writes = new WeakMap<QueryId, ReadonlyArray<WatchedTable>>()
  return {
    transformQuery({ node, queryId }) {
      const tables = writtenTables(node)
      if (tables.length > 0) writes.set(queryId, tables)
      return node
    },
    async transformResult({ queryId, result }) {
      for (const table of writes.get(queryId) ?? []) changes.changed(table)
      return result
    }
  }
}

function writtenTables(node: RootOperationNode): ReadonlyArray<WatchedTable> {
  const targets: ReadonlyArray<OperationNode | undefined> =
    node.kind === "InsertQueryNode"
      ? [node.into]
      : node.kind === "UpdateQueryNode"
        ? [node.table]
        : node.kind === "DeleteQueryNode"
          ? node.from.froms
          : node.kind === "MergeQueryNode"
            ? [node.into]
            : []
  return WATCHED.filter((table) => targets.some((target) => tableName(target) === table))
}

function tableName(node: OperationNode | undefined): string | undefined {
  if (node === undefined) return undefined
  if (TableNode.is(node)) return node.table.identifier.name
  if (AliasNode.is(node)) return tableName(node.node)
  return undefined
}

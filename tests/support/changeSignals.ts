import path from "node:path"
import { DatabaseSync } from "node:sqlite"
import pg from "pg"
import { expect } from "vitest"
import { runAdmin } from "../../src/server/cli/admin.ts"
import type { DialectHarness } from "./dbHarness.ts"
import type { TestServer } from "./testServer.ts"
import { WAIT_MS } from "./timeouts.ts"

// For the tests of what a server keeps until a table changes (Db.tableVersion): changes made the
// way the operator makes them, and changes no change signal tells of.

const POSTGRES_URL = process.env.TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/test"

/** The test server's own PostgreSQL schema ("" on SQLite). */
export const schemaOf = (server: TestServer): string =>
  new URL(server.config.databaseUrl ?? "postgres://x/").searchParams.get("schema") ?? ""

/** The operator CLI as the operator runs it: a process of its own, with its own connection. Fails the test unless it succeeds. */
export const operatorCli =
  (server: () => TestServer) =>
  async (...argv: Array<string>): Promise<void> => {
    const lines: Array<string> = []
    expect(await runAdmin(argv, { config: server().config, out: (line) => lines.push(line) }), lines.join("\n")).toBe(0)
  }

/**
 * Runs one statement (`?` for each parameter) on `table` the way no change signal sees, so only
 * an answer read from the database has it: what tells an answer from memory from one read afresh.
 * On SQLite from a connection of its own, taking back the trigger's count; on PostgreSQL with
 * triggers off (replica role), so nothing is announced.
 */
export async function changeUnseen(
  dialect: DialectHarness,
  server: TestServer,
  table: string,
  statement: string,
  parameters: ReadonlyArray<string | number>
): Promise<void> {
  if (dialect.name === "sqlite") {
    const file = new DatabaseSync(path.join(server.config.dataDir, "app.db"))
    try {
      file.exec(`PRAGMA busy_timeout=${WAIT_MS}`)
      file.exec("begin immediate")
      const changes = Number(file.prepare(statement).run(...parameters).changes)
      file.prepare("update table_versions set version = version - ? where name = ?").run(changes, table)
      file.exec("commit")
    } finally {
      file.close()
    }
    return
  }
  const client = new pg.Client({
    connectionString: POSTGRES_URL,
    options: `-c search_path=${schemaOf(server)} -c session_replication_role=replica`
  })
  await client.connect()
  try {
    let index = 0
    await client.query(
      statement.replace(/\?/g, () => `$${++index}`),
      [...parameters]
    )
  } finally {
    await client.end()
  }
}

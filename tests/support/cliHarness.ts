import { afterEach, beforeEach } from "vitest"
import { runAdmin } from "../../src/server/cli/admin.ts"
import { type Config, loadConfig } from "../../src/server/config.ts"
import type { DialectHarness, TestDatabase } from "./dbHarness.ts"

/**
 * The operator CLI over a fresh database per test, as `npm run admin` runs it: `admin(...argv)`
 * answers its exit code and what it printed (standard output and error together).
 */
export function useAdmin(dialect: DialectHarness) {
  let database: TestDatabase | undefined
  let config: Config | undefined
  beforeEach(async () => {
    database = await dialect.create()
    config = loadConfig({ DATA_DIR: database.dataDir, DATABASE_URL: database.databaseUrl })
  })
  afterEach(() => database?.dispose())

  const opened = (): { database: TestDatabase; config: Config } => {
    if (database === undefined || config === undefined) throw new Error("useAdmin's database exists only inside a test")
    return { database, config }
  }
  const run = async (operator: string | undefined, argv: ReadonlyArray<string>): Promise<{ code: number; output: string }> => {
    const lines: string[] = []
    const code = await runAdmin(argv, {
      config: opened().config,
      out: (text) => lines.push(text),
      db: opened().database.db,
      ...(operator === undefined ? {} : { operator })
    })
    return { code, output: lines.join("\n") }
  }
  return {
    get database(): TestDatabase {
      return opened().database
    },
    get config(): Config {
      return opened().config
    },
    // shares the test's connection, so a test sees what the command wrote at once
    admin: (...argv: string[]): Promise<{ code: number; output: string }> => run(undefined, argv),
    /** As `admin`, run by the OS user `operator` (the audit log's actor). */
    adminAs: (operator: string, ...argv: string[]): Promise<{ code: number; output: string }> => run(operator, argv)
  }
}

// Exits 0 when the database the server tests use answers, creating it first if the server is up
// but the database is missing; exits 1 (with the reason) otherwise.
import pg from "pg"

const url = new URL(process.env.TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/test")
const database = decodeURIComponent(url.pathname.slice(1))

// A busy machine may take seconds to connect; a probe that gave up early would leave PostgreSQL
// out of the run without a failure. (.ci/run runs this with the system's Node, which may be too old
// to load tests/support/timeouts.ts, hence the number here.)
const query = async (target, text) => {
  const client = new pg.Client({ connectionString: target.toString(), connectionTimeoutMillis: 30_000 })
  await client.connect()
  try {
    return await client.query(text)
  } finally {
    await client.end()
  }
}

try {
  await query(url, "select 1")
} catch (error) {
  // 3D000: invalid_catalog_name, the server answered but has no such database
  if (error?.code !== "3D000") {
    console.log(`PostgreSQL at ${url.host}/${database} does not answer: ${error?.message ?? error}`)
    process.exit(1)
  }
  try {
    const admin = new URL(url)
    admin.pathname = "/postgres"
    await query(admin, `create database "${database.replaceAll('"', '""')}"`)
    await query(url, "select 1")
    console.log(`Created database ${database} on ${url.host}`)
  } catch (createError) {
    console.log(`PostgreSQL at ${url.host} answers but database ${database} could not be created: ${createError?.message ?? createError}`)
    process.exit(1)
  }
}

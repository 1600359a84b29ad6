import { rmSync, mkdirSync } from "node:fs"
import autocannon from "autocannon"
import { prepareFixture } from "./serverBench.ts"
import { OUR_SERVER, startBenchServer } from "./benchServer.ts"
const fixture = await prepareFixture("postgres://postgres@127.0.0.1:5432/test")
rmSync("/tmp/prof", { recursive: true, force: true }); mkdirSync("/tmp/prof")
process.env.BENCH_NODE_FLAGS = "--cpu-prof --cpu-prof-dir=/tmp/prof"
const server = await startBenchServer(OUR_SERVER, fixture.env)
const r = await autocannon({ url: `${server.url}/api/streams/all`, connections: 100, duration: 6, headers: { token: fixture.staffToken } })
console.log("req/s", r.requests.average)
await server.stop(); await fixture.dispose()

import { livePlayers, prepareFixture } from "./serverBench.ts"
import { OUR_SERVER, startBenchServer } from "./benchServer.ts"
const fixture = await prepareFixture(process.argv[2] === "" ? undefined : process.argv[2])
const server = await startBenchServer(OUR_SERVER, fixture.env)
try {
  const live = await livePlayers(server, fixture.tokens, Number(process.argv[3] ?? 20), () => server.probe())
  console.log("starts ms", live.startMs)
  for (const [name, r] of [["playlists", live.playlists], ["telemetry", live.telemetry]] as const) console.log(name, r.requests.total, "p50", r.latency.p50, "p99", r.latency.p99, "errors", r.errors, r.timeouts, r.non2xx)
  console.log("stall", (await server.probe()).loopMaxMs)
} finally {
  await server.stop()
  await fixture.dispose()
}

/**
 * Preloaded (`--import`) into a server the bench starts: answers the parent's probe with the
 * process's memory, CPU time and the longest event-loop stall since the last probe that reset it
 * (memory samplers read without resetting, so they do not cut a measured stretch short). Plain
 * JavaScript: a TypeScript preload would load Node's type stripper into a process that, run as in
 * production, never loads it (some 10 MB, and time at start). The reading's shape is
 * `ProbeReading` in benchServer.ts.
 */
import { monitorEventLoopDelay } from "node:perf_hooks"

const loop = monitorEventLoopDelay({ resolution: 5 })
loop.enable()

process.on("message", (message) => {
  if (typeof message?.id !== "number") return
  const cpu = process.cpuUsage()
  const memory = process.memoryUsage()
  const reading = {
    rssMb: memory.rss / 2 ** 20,
    heapMb: memory.heapUsed / 2 ** 20,
    heapTotalMb: memory.heapTotal / 2 ** 20,
    externalMb: memory.external / 2 ** 20,
    cpuMs: (cpu.user + cpu.system) / 1000,
    loopMaxMs: loop.max / 1e6,
    loopP99Ms: loop.percentile(99) / 1e6
  }
  if (message.reset === true) loop.reset()
  process.send?.({ id: message.id, reading })
})
// the IPC channel must not keep a server alive that has been told to stop
process.channel?.unref()

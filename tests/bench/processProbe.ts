/**
 * Preloaded (`--import`) into a server the bench starts: answers the parent's probe with the
 * process's memory, CPU time and the longest event-loop stall since the last probe that reset it
 * (memory samplers read without resetting, so they do not cut a measured stretch short).
 */
import { monitorEventLoopDelay } from "node:perf_hooks"

const loop = monitorEventLoopDelay({ resolution: 5 })
loop.enable()

export interface ProbeReading {
  readonly rssMb: number
  readonly heapMb: number
  readonly heapTotalMb: number
  readonly externalMb: number
  readonly cpuMs: number
  readonly loopMaxMs: number
  readonly loopP99Ms: number
}

export interface ProbeRequest {
  readonly id: number
  readonly reset: boolean
}

process.on("message", (message: unknown) => {
  const request = message as Partial<ProbeRequest> | null
  if (typeof request?.id !== "number") return
  const cpu = process.cpuUsage()
  const memory = process.memoryUsage()
  const reading: ProbeReading = {
    rssMb: memory.rss / 2 ** 20,
    heapMb: memory.heapUsed / 2 ** 20,
    heapTotalMb: memory.heapTotal / 2 ** 20,
    externalMb: memory.external / 2 ** 20,
    cpuMs: (cpu.user + cpu.system) / 1000,
    loopMaxMs: loop.max / 1e6,
    loopP99Ms: loop.percentile(99) / 1e6
  }
  if (request.reset === true) loop.reset()
  process.send?.({ id: request.id, reading })
})
// the IPC channel must not keep a server alive that has been told to stop
process.channel?.unref()

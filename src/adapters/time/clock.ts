import { fromCallback } from "xstate"
import type { ClockCommand, ClockFact, ClockInput } from "../../domain/ClockProtocol.ts"

/**
 * The device clock: a tick at start, every `everyMs`, at each time asked for, and when a hidden
 * tab (whose timers the browser slowed) shows again, so a sleeping device catches up at once.
 * Timers are looked up on each call, so fake timers installed after the app was wired drive it.
 */
export const createClockActor = () =>
  fromCallback<ClockCommand, ClockInput>(({ input, sendBack, receive }) => {
    const tick = () => sendBack({ type: "clock.ticked", now: Date.now() } satisfies ClockFact)
    const every = globalThis.setInterval(tick, input.everyMs)
    let wake: ReturnType<typeof globalThis.setTimeout> | undefined
    receive(({ at }) => {
      globalThis.clearTimeout(wake)
      // an infinite delay would fire at once: nothing to wake for
      if (Number.isFinite(at)) wake = globalThis.setTimeout(tick, Math.max(0, at - Date.now()))
    })
    const onVisible = () => {
      if (globalThis.document?.visibilityState === "visible") tick()
    }
    globalThis.document?.addEventListener("visibilitychange", onVisible)
    tick()
    return () => {
      globalThis.clearInterval(every)
      globalThis.clearTimeout(wake)
      globalThis.document?.removeEventListener("visibilitychange", onVisible)
    }
  })

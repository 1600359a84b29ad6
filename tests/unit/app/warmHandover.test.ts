import { afterEach, describe, expect, it, vi } from "vitest"
import type { WarmPlayer } from "../../../src/adapters/media/warmPlayer.ts"
import { watchHandover } from "../../../src/app/warmHandover.ts"
import type { BootActor } from "../../../src/machines/shell/bootMachine.ts"

/** A boot actor as far as the hand-over watch looks: snapshots it can be told about. */
const fakeBoot = () => {
  const listeners: Array<(snapshot: unknown) => void> = []
  const unsubscribe = vi.fn()
  const subscribe = (listener: (snapshot: unknown) => void) => {
    listeners.push(listener)
    return { unsubscribe }
  }
  const boot = { subscribe } as unknown as BootActor
  const enter = (state: "booting" | "ready" | "maintenance" | "failed") => {
    const snapshot = { matches: (name: string) => name === state, context: { notice: { title: "Works" }, error: "down" } }
    for (const listener of listeners) listener(snapshot)
  }
  return { boot, enter, unsubscribe }
}

const fakeRoutes = () => {
  let listener: (pathname: string) => void = () => undefined
  const stop = vi.fn()
  const subscribe = (next: (pathname: string) => void) => {
    listener = next
    return stop
  }
  return { subscribe, go: (pathname: string) => listener(pathname), stop }
}

const warm = () => ({ release: vi.fn() }) as unknown as WarmPlayer & { release: ReturnType<typeof vi.fn> }

afterEach(() => vi.useRealTimers())

describe("letting a warm start go when the app will not take it", () => {
  it("lets go when the visitor leaves the player page, not while they stay", () => {
    const player = warm()
    const routes = fakeRoutes()
    watchHandover(player, { boot: fakeBoot().boot, subscribeToRoutes: routes.subscribe, pathname: "/player" })
    routes.go("/player")
    expect(player.release).not.toHaveBeenCalled()
    routes.go("/login")
    expect(player.release).toHaveBeenCalledOnce()
  })

  it("lets go when maintenance or a failed start-up replaces the app", () => {
    for (const state of ["maintenance", "failed"] as const) {
      const player = warm()
      const boot = fakeBoot()
      watchHandover(player, { boot: boot.boot, subscribeToRoutes: fakeRoutes().subscribe, pathname: "/player" })
      boot.enter("ready")
      expect(player.release).not.toHaveBeenCalled()
      boot.enter(state)
      expect(player.release).toHaveBeenCalledOnce()
    }
  })

  it("lets go of whatever was not handed over after a grace period, and stops watching", () => {
    vi.useFakeTimers()
    const player = warm()
    const boot = fakeBoot()
    const routes = fakeRoutes()
    watchHandover(player, { boot: boot.boot, subscribeToRoutes: routes.subscribe, pathname: "/player" })
    vi.advanceTimersByTime(3999)
    expect(player.release).not.toHaveBeenCalled()
    vi.advanceTimersByTime(1)
    expect(player.release).toHaveBeenCalledOnce()
    expect(routes.stop).toHaveBeenCalledOnce()
    expect(boot.unsubscribe).toHaveBeenCalledOnce()
  })
})

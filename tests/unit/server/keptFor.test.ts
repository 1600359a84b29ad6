import { describe, expect, it } from "vitest"
import { keptFor } from "../../../src/server/http/keptFor.ts"

describe("a value kept for a while", () => {
  const setup = (answers: Array<() => Promise<number>>) => {
    let clock = 1_000
    let reads = 0
    const value = keptFor(
      5_000,
      () => {
        const answer = answers[Math.min(reads, answers.length - 1)] ?? (() => Promise.resolve(-1))
        reads += 1
        return answer()
      },
      () => clock
    )
    return { value, reads: () => reads, move: (ms: number) => (clock += ms) }
  }

  it("is read once for the calls within its time, even while the read is under way, then read again", async () => {
    const kept = setup([() => Promise.resolve(1), () => Promise.resolve(2)])
    const [a, b] = await Promise.all([kept.value(), kept.value()])
    expect([a, b, kept.reads()]).toEqual([1, 1, 1])
    kept.move(4_999)
    expect([await kept.value(), kept.reads()]).toEqual([1, 1])
    kept.move(1)
    expect([await kept.value(), kept.reads()]).toEqual([2, 2])
  })

  it("is read again at the next call after a failed read, and after the clock went back", async () => {
    const kept = setup([() => Promise.reject(new Error("down")), () => Promise.resolve(3), () => Promise.resolve(4)])
    await expect(kept.value()).rejects.toThrow("down")
    expect([await kept.value(), kept.reads()]).toEqual([3, 2])
    kept.move(-10)
    expect([await kept.value(), kept.reads()]).toEqual([4, 3])
  })
})

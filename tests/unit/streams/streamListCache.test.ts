import { describe, expect, it } from "vitest"
import type { StreamRow } from "../../../src/server/db/schema.ts"
import { streamListCache } from "../../../src/server/streams/streamListCache.ts"

const row = (title: string): StreamRow => ({
  id: 1,
  position: 1,
  title,
  src: null,
  src_sldp: null,
  image_location: "",
  tags: "",
  tags_sldp: "",
  maintenance_mode: false,
  epg_channel_id: null,
  created_at: "2026-01-15T12:00:00.000Z"
})

/** A table whose reads the test answers by hand, and its version, which the test moves. */
function fakeTable() {
  const table = {
    title: "first",
    version: 1 as number | undefined,
    reads: 0,
    pending: [] as Array<() => void>,
    /** Reads answer what the table held when they began, once `finish` is called. */
    manual: false,
    read: async (): Promise<Array<StreamRow>> => {
      table.reads += 1
      const title = table.title
      if (table.manual) await new Promise<void>((resolve) => table.pending.push(resolve))
      return [row(title)]
    },
    finish: async () => {
      for (const resolve of table.pending.splice(0)) resolve()
      await new Promise((resolve) => setImmediate(resolve))
    }
  }
  return table
}

const titles = async (list: () => Promise<ReadonlyArray<StreamRow>>) => (await list()).map((r) => r.title)

describe("streamListCache", () => {
  it("reads once per version", async () => {
    const table = fakeTable()
    const list = streamListCache(table.read, () => table.version)
    expect(await titles(list)).toEqual(["first"])
    expect(await titles(list)).toEqual(["first"])
    expect(table.reads).toBe(1)
    table.title = "second"
    table.version = 2
    expect(await titles(list)).toEqual(["second"])
    expect(table.reads).toBe(2)
  })

  it("reads every time while the version is unknown, and keeps nothing read meanwhile", async () => {
    const table = fakeTable()
    const list = streamListCache(table.read, () => table.version)
    await list()
    table.version = undefined
    table.title = "during the outage"
    expect(await titles(list)).toEqual(["during the outage"])
    table.title = "still out"
    expect(await titles(list)).toEqual(["still out"])
    expect(table.reads).toBe(3)
    table.version = 5
    expect(await titles(list)).toEqual(["still out"])
    expect(await titles(list)).toEqual(["still out"])
    expect(table.reads).toBe(4)
  })

  it("keeps no read during which the table changed, under either version", async () => {
    const table = fakeTable()
    table.manual = true
    const list = streamListCache(table.read, () => table.version)
    const during = list()
    // the change commits while the read is under way; the read may not have seen it
    table.version = 2
    table.title = "changed"
    await table.finish()
    expect((await during).map((r) => r.title)).toEqual(["first"])
    const next = list()
    await table.finish()
    expect((await next).map((r) => r.title)).toEqual(["changed"])
    expect(table.reads).toBe(2)
  })

  it("shares a read under way with callers of the same version", async () => {
    const table = fakeTable()
    table.manual = true
    const list = streamListCache(table.read, () => table.version)
    const both = Promise.all([list(), list()])
    await table.finish()
    expect((await both).map((rows) => rows.map((r) => r.title))).toEqual([["first"], ["first"]])
    expect(table.reads).toBe(1)
  })

  it("keeps no failed read", async () => {
    const table = fakeTable()
    let fail = true
    const list = streamListCache(
      async () => {
        if (fail) throw new Error("database gone")
        return table.read()
      },
      () => table.version
    )
    await expect(list()).rejects.toThrow("database gone")
    fail = false
    expect(await titles(list)).toEqual(["first"])
  })

  it("hands out rows no caller can change for the others", async () => {
    const table = fakeTable()
    const list = streamListCache(table.read, () => table.version)
    const rows = await list()
    expect(() => {
      ;(rows[0] as { title: string }).title = "mine"
    }).toThrow(TypeError)
    expect(() => (rows as Array<StreamRow>).push(row("extra"))).toThrow(TypeError)
    expect(await titles(list)).toEqual(["first"])
  })
})

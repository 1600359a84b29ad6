import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { decodeWith } from "../../../src/domain/decode.ts"
import { StreamsResponse } from "../../../src/domain/Stream.ts"
import type { StreamRow } from "../../../src/server/db/schema.ts"
import { compileStreamsAnswer, type StreamSources, streamsAnswers, wireStream } from "../../../src/server/streams/streamsAnswer.ts"

const row = (id: number, overrides: Partial<StreamRow> = {}): StreamRow => ({
  id,
  position: id,
  title: `Channel ${id}`,
  src: `/live/demo${id}/index.m3u8`,
  src_sldp: null,
  image_location: `/posters/demo${id}.jpg`,
  tags: "!Live,chromecast",
  tags_sldp: "lls",
  maintenance_mode: false,
  epg_channel_id: "demo.tv",
  created_at: "2026-01-15T12:00:00.000Z",
  ...overrides
})

/** What the handler answered before the answer was written once: the same answer, stringified whole. */
const stringified = (rows: ReadonlyArray<StreamRow>, signed: ReadonlyArray<StreamSources>) =>
  JSON.stringify({ success: true, data: rows.map((stream, n) => wireStream({ ...stream, ...signed[n] })) })

const sign = (sources: ReadonlyArray<StreamSources>, grant: string) =>
  sources.map((stream) => ({
    ...stream,
    src: stream.src === null ? null : `${stream.src}?grant=${grant}`,
    src_sldp: `${stream.src ?? "/live/x/ll.m3u8"}?grant=${grant}.lls`
  }))

describe("the streams answer written once per list", () => {
  it("is what stringifying the whole answer gives, for each viewer's sources", () => {
    const rows = [row(1), row(2, { src: null, maintenance_mode: true, title: 'Quote " and \u2028 and é' })]
    const answer = compileStreamsAnswer(rows)
    if (answer === undefined) throw new Error("a valid list compiles")
    expect(answer.sources).toEqual([
      { id: 1, src: "/live/demo1/index.m3u8", src_sldp: null },
      { id: 2, src: null, src_sldp: null }
    ])
    for (const grant of ["g1.7.12.1.tv.demo1.1700000000000.sig", "other"]) {
      const signed = sign(answer.sources, grant)
      const json = answer.encode(signed)?.json
      expect(json).toBe(stringified(rows, signed))
      expect(decodeWith(StreamsResponse)(JSON.parse(json ?? "")).ok).toBe(true)
    }
  })

  it("matches stringifying for any text in the list and the sources", () => {
    const text = fc.string({ unit: "binary" })
    const source = fc.option(text, { nil: null })
    fc.assert(
      fc.property(
        fc.array(
          fc.record({ title: text, tags: text, image_location: text, src: source, src_sldp: source, maintenance_mode: fc.boolean() }),
          {
            maxLength: 5
          }
        ),
        fc.array(fc.tuple(source, source), { minLength: 5, maxLength: 5 }),
        (streams, signedSources) => {
          const rows = streams.map((stream, n) => row(n + 1, stream))
          const answer = compileStreamsAnswer(rows)
          if (answer === undefined) throw new Error("a valid list compiles")
          const signed = answer.sources.map((stream, n) => ({
            ...stream,
            src: signedSources[n]?.[0] ?? null,
            src_sldp: signedSources[n]?.[1] ?? null
          }))
          expect(answer.encode(signed)?.json).toBe(stringified(rows, signed))
        }
      )
    )
  })

  it("is not written for a list the contract refuses, nor for sources that do not fit it", () => {
    expect(compileStreamsAnswer([row(1, { image_location: null as unknown as string })])).toBeUndefined()
    const answer = compileStreamsAnswer([row(1)])
    expect(answer?.encode([])).toBeUndefined()
    expect(answer?.encode([{ id: 1, src: 5 as unknown as string, src_sldp: null }])).toBeUndefined()
    expect(answer?.encode([{ id: 1, src: null, src_sldp: undefined as unknown as null }])).toBeUndefined()
  })

  it("is written once per list read, and afresh for the next read", () => {
    const answerFor = streamsAnswers()
    const first = Object.freeze([row(1)])
    expect(answerFor(first)).toBe(answerFor(first))
    const next = Object.freeze([row(1, { title: "Renamed" })])
    expect(answerFor(next)).not.toBe(answerFor(first))
    expect(answerFor(next)?.encode(answerFor(next)?.sources ?? [])?.json).toContain('"title":"Renamed"')
  })
})

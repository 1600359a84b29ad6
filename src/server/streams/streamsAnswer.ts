import { decodeWith } from "../../domain/decode.ts"
import { StreamsResponse } from "../../domain/Stream.ts"
import { CheckedJson } from "../http/registerContract.ts"
import type { StreamList } from "./streamListCache.ts"

/** A stream's sources, all the signer reads and changes. */
export interface StreamSources {
  readonly id: number
  readonly src: string | null
  readonly src_sldp: string | null
}

/** The grid's answer for one list of streams, written once but for each viewer's sources. */
export interface StreamsAnswer {
  /** Each stream's id and sources, in the list's order, for the signer. */
  readonly sources: ReadonlyArray<StreamSources>
  /**
   * The answer with these sources (the signer's, one per stream in order) in place of the list's;
   * undefined when they do not fit it (another count, a source neither text nor null).
   */
  encode(signed: ReadonlyArray<StreamSources>): CheckedJson<"streams"> | undefined
}

/** A stream as the contract sends it: these fields, in this order. */
export const wireStream = (row: StreamList[number]) => ({
  id: row.id,
  title: row.title,
  src: row.src,
  src_sldp: row.src_sldp,
  image_location: row.image_location,
  tags: row.tags,
  tags_sldp: row.tags_sldp,
  maintenance_mode: row.maintenance_mode
})

const checkAnswer = decodeWith(StreamsResponse)
const isSource = (value: unknown): value is string | null => value === null || typeof value === "string"

/**
 * The answer's JSON around each stream's two sources, made once per list. The list is checked
 * against the response schema here, once, with the sources it has; a signer only puts other text
 * (or null) in their place, which `encode` checks, so each answer stays one the schema takes. The
 * text is what `JSON.stringify` makes of the same answer. Undefined when the list breaks the
 * contract: the caller then answers as any handler does, and the contract check refuses it.
 */
export function compileStreamsAnswer(rows: StreamList): StreamsAnswer | undefined {
  const data = rows.map(wireStream)
  if (!checkAnswer({ success: true, data }).ok) return undefined
  const text = JSON.stringify
  const parts = data.map((stream) => ({
    head: `{"id":${text(stream.id)},"title":${text(stream.title)},"src":`,
    tail:
      `,"image_location":${text(stream.image_location)},"tags":${text(stream.tags)},` +
      `"tags_sldp":${text(stream.tags_sldp)},"maintenance_mode":${text(stream.maintenance_mode)}}`
  }))
  const sources = Object.freeze(data.map(({ id, src, src_sldp }) => Object.freeze({ id, src, src_sldp })))
  return {
    sources,
    encode(signed) {
      if (signed.length !== parts.length) return undefined
      let json = '{"success":true,"data":['
      for (let index = 0; index < parts.length; index += 1) {
        const part = parts[index]
        const stream = signed[index]
        if (part === undefined || stream === undefined || !isSource(stream.src) || !isSource(stream.src_sldp)) return undefined
        json += `${index === 0 ? "" : ","}${part.head}${text(stream.src)},"src_sldp":${text(stream.src_sldp)}${part.tail}`
      }
      return CheckedJson.of(`${json}]}`)
    }
  }
}

/** One compiled answer per list read, kept as long as the list is. */
export function streamsAnswers(): (rows: StreamList) => StreamsAnswer | undefined {
  const compiled = new WeakMap<StreamList, StreamsAnswer | null>()
  return (rows) => {
    let answer = compiled.get(rows)
    if (answer === undefined) {
      answer = compileStreamsAnswer(rows) ?? null
      compiled.set(rows, answer)
    }
    return answer ?? undefined
  }
}

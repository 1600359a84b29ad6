import { SaxesParser, type SaxesTagPlain } from "saxes"

/** `<channel id>` with its display name (English when the file has several languages). */
export interface XmltvChannel {
  readonly kind: "channel"
  readonly id: string
  readonly name: string | undefined
}

/** `<programme>` as written: times are still XMLTV text, read by the importer. */
export interface XmltvProgramme {
  readonly kind: "programme"
  readonly channel: string
  readonly start: string
  readonly stop: string | undefined
  readonly title: string | undefined
  readonly subtitle: string | undefined
}

export type XmltvItem = XmltvChannel | XmltvProgramme

/** The file is not well-formed XMLTV; `line` and `column` locate it when the parser knows where. */
export class XmltvError extends Error {
  override readonly name = "XmltvError"
  readonly line: number | undefined
  readonly column: number | undefined
  readonly reason: string
  constructor(reason: string, line?: number, column?: number) {
    super(line === undefined ? reason : `line ${line}, column ${column}: ${reason}`)
    this.reason = reason
    this.line = line
    this.column = column
  }
}

// Only these children are read, each into its slot; descriptions, credits and icons pass by.
type Slot = "title" | "subtitle" | "name"
const WANTED = {
  programme: new Map<string, Slot>([
    ["title", "title"],
    ["sub-title", "subtitle"]
  ]),
  channel: new Map<string, Slot>([["display-name", "name"]])
} as const
// A title longer than this is garbage, and keeping it whole would let one element fill memory.
const MAX_TEXT = 1000

/** A programme or channel being read: per slot its first text, and its first English one. */
interface OpenElement {
  readonly kind: "programme" | "channel"
  readonly attributes: Record<string, string>
  readonly first: Partial<Record<Slot, string>>
  readonly english: Partial<Record<Slot, string>>
}

const isEnglish = (lang: string): boolean => lang === "en" || /^en(?:[-_]|$)/i.test(lang)

/** English when the element comes in several languages, else the first. */
const preferred = (element: OpenElement, slot: Slot): string | undefined => element.english[slot] ?? element.first[slot]

/**
 * A copy that owns its characters. V8 cuts a substring out of the text chunk it came from without
 * copying (from 13 characters on), and keeps the whole chunk alive as long as the substring
 * lives: a channel id kept for the whole import would pin one chunk per channel, and the titles
 * of a batch waiting for its commit, a chunk each.
 */
const own = (text: string): string => (text.length < 13 ? text : Buffer.from(text, "utf8").toString("utf8"))

const LOOSE_SPACE = /\s{2,}|[\t\n\r]/
/** One space between words, in a string of its own. */
const tidy = (text: string): string => own((LOOSE_SPACE.test(text) ? text.replace(/\s+/g, " ") : text).trim().slice(0, MAX_TEXT))

/** One string per channel id, owning its characters, shared by every programme of that channel. */
function channelIds(): (raw: string | undefined) => string {
  const ids = new Map<string, string>()
  return (raw) => {
    const id = (raw ?? "").trim()
    let kept = ids.get(id)
    if (kept === undefined) {
      kept = own(id)
      ids.set(kept, kept)
    }
    return kept
  }
}

function toItem(element: OpenElement, channelId: (raw: string | undefined) => string): XmltvItem {
  const { attributes } = element
  if (element.kind === "channel") return { kind: "channel", id: channelId(attributes.id), name: preferred(element, "name") }
  return {
    kind: "programme",
    channel: channelId(attributes.channel),
    start: attributes.start ?? "",
    stop: attributes.stop,
    title: preferred(element, "title"),
    subtitle: preferred(element, "subtitle")
  }
}

function asXmltvError(error: unknown): XmltvError {
  const message = error instanceof Error ? error.message : String(error)
  const located = /^(\d+):(\d+): (.*)$/s.exec(message)
  if (located === null) return new XmltvError(message)
  return new XmltvError(located[3] ?? message, Number(located[1]), Number(located[2]))
}

/**
 * Streams an XMLTV document: after each chunk of text, the channels and programmes it completed.
 * Never holds more than the element being read; entities and CDATA come out decoded.
 */
export async function* readXmltv(chunks: AsyncIterable<string>): AsyncGenerator<ReadonlyArray<XmltvItem>> {
  const parser = new SaxesParser({ xmlns: false, position: true })
  const channelId = channelIds()
  let items: Array<XmltvItem> = []
  let depth = 0
  let open: OpenElement | undefined
  let collecting: { slot: Slot; lang: string; text: string } | undefined

  parser.on("opentag", (tag: SaxesTagPlain) => {
    depth += 1
    if (depth === 1) {
      // an HTML error page served with 200 is well-formed often enough to need this
      if (tag.name !== "tv") parser.fail(`not an XMLTV file: the root element is <${tag.name}>, not <tv>`)
    } else if (depth === 2 && (tag.name === "programme" || tag.name === "channel")) {
      open = { kind: tag.name, attributes: tag.attributes, first: {}, english: {} }
    } else if (depth === 3 && open !== undefined) {
      const slot = WANTED[open.kind].get(tag.name)
      if (slot === undefined) return
      collecting = { slot, lang: tag.attributes.lang ?? "", text: "" }
      // listening only here spares saxes cutting out every run of indentation and description
      parser.on("text", onText)
    }
  })
  const onText = (text: string) => {
    if (collecting !== undefined && collecting.text.length < MAX_TEXT * 2) collecting.text += text
  }
  parser.on("cdata", onText)
  parser.on("closetag", () => {
    if (depth === 3 && collecting !== undefined && open !== undefined) {
      parser.off("text")
      const { slot, lang } = collecting
      const text = tidy(collecting.text)
      open.first[slot] ??= text
      if (isEnglish(lang)) open.english[slot] ??= text
      collecting = undefined
    } else if (depth === 2 && open !== undefined) {
      items.push(toItem(open, channelId))
      open = undefined
    }
    depth -= 1
  })

  const parse = (write: () => void) => {
    try {
      write()
    } catch (error) {
      throw asXmltvError(error)
    }
  }
  for await (const chunk of chunks) {
    parse(() => parser.write(chunk))
    if (items.length > 0) {
      yield items
      items = []
    }
  }
  // a truncated file ends inside an element: closing says which, and where
  parse(() => parser.close())
  if (items.length > 0) yield items
}

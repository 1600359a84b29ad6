/**
 * AMF0, the encoding of RTMP's commands and of FLV's script data: numbers, booleans, strings,
 * objects, arrays, null. Only what encoders send is read; anything else is an error, never a guess.
 */

export type Amf0Value = number | boolean | string | null | undefined | Date | Amf0Object | ReadonlyArray<Amf0Value>
export interface Amf0Object {
  readonly [key: string]: Amf0Value
}

export class Amf0Error extends Error {
  override readonly name = "Amf0Error"
}

const OBJECT_END = 0x09
// how deep objects may nest, and how many entries one may hold: an encoder's metadata is small
const MAX_DEPTH = 16
const MAX_ENTRIES = 4096

/** Every value in `bytes`, in order. */
export function decodeAmf0(bytes: Buffer): Array<Amf0Value> {
  const values: Array<Amf0Value> = []
  let at = 0
  const need = (count: number): void => {
    if (at + count > bytes.length) throw new Amf0Error("AMF0 value cut short")
  }
  const shortString = (): string => {
    need(2)
    const length = bytes.readUInt16BE(at)
    need(2 + length)
    const text = bytes.toString("utf8", at + 2, at + 2 + length)
    at += 2 + length
    return text
  }
  const properties = (depth: number): Amf0Object => {
    const object: Record<string, Amf0Value> = {}
    for (let entries = 0; ; entries++) {
      if (entries > MAX_ENTRIES) throw new Amf0Error("AMF0 object too large")
      // the object's end: an empty name, then the end marker
      if (at + 3 <= bytes.length && bytes.readUInt16BE(at) === 0 && bytes[at + 2] === OBJECT_END) {
        at += 3
        return object
      }
      // some encoders end a metadata array at the end of the message, without the marker
      if (at >= bytes.length) return object
      const key = shortString()
      Object.defineProperty(object, key, { value: value(depth + 1), enumerable: true, writable: true, configurable: true })
    }
  }
  const value = (depth: number): Amf0Value => {
    if (depth > MAX_DEPTH) throw new Amf0Error("AMF0 values nested too deep")
    need(1)
    const marker = bytes[at++]
    switch (marker) {
      case 0x00: {
        need(8)
        const number = bytes.readDoubleBE(at)
        at += 8
        return number
      }
      case 0x01:
        need(1)
        return bytes[at++] !== 0
      case 0x02:
        return shortString()
      case 0x03:
        return properties(depth)
      case 0x05:
        return null
      case 0x06:
        return undefined
      case 0x08:
        need(4)
        at += 4
        return properties(depth)
      case 0x0a: {
        need(4)
        const count = bytes.readUInt32BE(at)
        at += 4
        if (count > MAX_ENTRIES) throw new Amf0Error("AMF0 array too large")
        return Array.from({ length: count }, () => value(depth + 1))
      }
      case 0x0b: {
        need(10)
        const date = new Date(bytes.readDoubleBE(at))
        at += 10
        return date
      }
      case 0x0c: {
        need(4)
        const length = bytes.readUInt32BE(at)
        need(4 + length)
        const text = bytes.toString("utf8", at + 4, at + 4 + length)
        at += 4 + length
        return text
      }
      default:
        throw new Amf0Error(`AMF0 type ${marker} is not read here`)
    }
  }
  while (at < bytes.length) values.push(value(0))
  return values
}

/** `values` encoded one after the other. */
export function encodeAmf0(...values: ReadonlyArray<Amf0Value>): Buffer {
  const parts: Array<Buffer> = []
  const shortString = (text: string): void => {
    const body = Buffer.from(text, "utf8")
    const length = Buffer.alloc(2)
    length.writeUInt16BE(body.length)
    parts.push(length, body)
  }
  const write = (value: Amf0Value): void => {
    if (value === null) parts.push(Buffer.from([0x05]))
    else if (value === undefined) parts.push(Buffer.from([0x06]))
    else if (typeof value === "number") {
      const number = Buffer.alloc(9)
      number[0] = 0x00
      number.writeDoubleBE(value, 1)
      parts.push(number)
    } else if (typeof value === "boolean") parts.push(Buffer.from([0x01, value ? 1 : 0]))
    else if (typeof value === "string") {
      parts.push(Buffer.from([0x02]))
      shortString(value)
    } else if (value instanceof Date) {
      const date = Buffer.alloc(11)
      date[0] = 0x0b
      date.writeDoubleBE(value.getTime(), 1)
      parts.push(date)
    } else if (Array.isArray(value)) {
      const head = Buffer.alloc(5)
      head[0] = 0x0a
      head.writeUInt32BE(value.length, 1)
      parts.push(head)
      for (const item of value) write(item)
    } else {
      parts.push(Buffer.from([0x03]))
      for (const [key, item] of Object.entries(value as Amf0Object)) {
        shortString(key)
        write(item)
      }
      parts.push(Buffer.from([0x00, 0x00, OBJECT_END]))
    }
  }
  for (const value of values) write(value)
  return Buffer.concat(parts)
}

import fc from "fast-check"

/** JSON text written as it is, for what JSON.stringify cannot say: 1e309, deep nesting, raw escapes. */
export class RawJson {
  readonly text: string
  constructor(text: string) {
    this.text = text
  }
}

/** JSON text of a value that may hold RawJson parts and own `__proto__` keys. */
export function jsonText(value: unknown): string {
  if (value instanceof RawJson) return value.text
  if (Array.isArray(value)) return `[${value.map(jsonText).join(",")}]`
  if (typeof value === "object" && value !== null) {
    return `{${Object.entries(value)
      .map(([key, inner]) => `${JSON.stringify(key)}:${jsonText(inner)}`)
      .join(",")}}`
  }
  return JSON.stringify(value) ?? "null"
}

export const HUGE_TEXT = "x".repeat(100_000)
// two UTF-8 bytes a character: 120 KB, still under the body limit
const HUGE_WIDE_TEXT = "é".repeat(60_000)

const CONTROLS = ["\u0000", "\u0001", "\u0007", "\b", "\u000b", "\f", "\u001b", "\u001f", "\u007f", "\u0085", "\u009f"]
const LONE_SURROGATES = ["\ud800", "\udfff", "x\udc00y", "\ud83d", "\ude00\ud83d"]
const ODD_TEXT = [
  "",
  " ",
  "\t",
  "__proto__",
  "constructor",
  "prototype",
  "toString",
  "hasOwnProperty",
  "valueOf",
  "null",
  "undefined",
  "NaN",
  "Infinity",
  "-Infinity",
  "1e309",
  "-0",
  "0x1F",
  "true",
  "[]",
  "{}",
  "' OR '1'='1",
  '"; DROP TABLE users; --',
  "%00",
  "%",
  "../../etc/passwd",
  "<script>alert(1)</script>",
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a template injection attempt, sent as plain text
  "${7*7}",
  "\u202e\u0301",
  "\ufeff",
  "\u2028\u2029",
  "😀😀😀",
  "a".repeat(513),
  "2026-02-30",
  "9999-12-31",
  "0000-00-00",
  "Etc/GMT+14",
  "Europe/../UTC"
]

/** Text no field should choke on: control characters, lone surrogates, 100k characters, names of prototype members. */
export const hostileText: fc.Arbitrary<string> = fc.oneof(
  fc
    .tuple(fc.string({ maxLength: 8 }), fc.constantFrom(...CONTROLS), fc.string({ maxLength: 8 }))
    .map(([a, control, b]) => a + control + b),
  fc.constantFrom(...LONE_SURROGATES),
  fc.constantFrom(...ODD_TEXT),
  fc.constantFrom(HUGE_TEXT, HUGE_WIDE_TEXT),
  fc.string({ unit: "binary", maxLength: 40 })
)

// Numbers as JSON text: out of double range (JSON.parse makes them Infinity), past 2^53, past int4.
const NUMBER_TEXT = [
  "1e309",
  "-1e309",
  "1e-400",
  "-0",
  "0.0",
  "123456789012345678901234567890",
  "9007199254740993",
  "2147483648",
  "-2147483649",
  "1.7976931348623157e308",
  "5e-324",
  "1E2",
  "0e0",
  "1e400000"
]
const hostileNumber: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(...NUMBER_TEXT).map((text) => new RawJson(text)),
  fc.constantFrom(0, -1, 0.5, 2 ** 31, -(2 ** 31) - 1, 2 ** 53 + 2, Number.MAX_SAFE_INTEGER, 1e21, Number.MAX_VALUE),
  fc.double({ noNaN: true, noDefaultInfinity: true })
)

const nested = (depth: number, open: string, inner: string, close: string) => new RawJson(open.repeat(depth) + inner + close.repeat(depth))
const protoPollution = () => {
  const polluting: Record<string, unknown> = {}
  for (const key of ["__proto__", "constructor", "prototype"]) {
    Object.defineProperty(polluting, key, {
      value: { isStaff: true, is_staff: 1, polluted: "yes" },
      enumerable: true,
      configurable: true,
      writable: true
    })
  }
  return polluting
}

const hostileStructure: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant(nested(5_000, "[", "", "]")),
  fc.constant(nested(50_000, "[", "0", "]")),
  fc.constant(nested(5_000, '{"a":', "1", "}")),
  fc.constant(null).map(protoPollution),
  fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 6 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 })
)

/** A value of any JSON type, chosen to be wrong or awkward wherever it lands. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  hostileText,
  hostileNumber,
  hostileStructure,
  fc.constantFrom(null, true, false)
)

type Path = ReadonlyArray<string | number>

function pathsOf(value: unknown, path: Path = [], into: Array<Path> = []): Array<Path> {
  into.push(path)
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) pathsOf(item, [...path, index], into)
  } else if (typeof value === "object" && value !== null && !(value instanceof RawJson)) {
    for (const [key, inner] of Object.entries(value)) pathsOf(inner, [...path, key], into)
  }
  return into
}

function setOwn(target: Record<string | number, unknown>, key: string | number, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, configurable: true, writable: true })
}

/** A copy of `value` with the node at `path` replaced, or removed when `replacement` is `remove`. */
function changedAt(value: unknown, path: Path, replacement: unknown | typeof REMOVE): unknown {
  const [key, ...rest] = path
  if (key === undefined) return replacement
  if (Array.isArray(value)) {
    const copy = [...value]
    if (replacement === REMOVE && rest.length === 0) copy.splice(Number(key), 1)
    else copy[Number(key)] = changedAt(value[Number(key)], rest, replacement)
    return copy
  }
  const copy: Record<string, unknown> = {}
  for (const [k, inner] of Object.entries(value as object)) setOwn(copy, k, inner)
  if (replacement === REMOVE && rest.length === 0) delete copy[key]
  else setOwn(copy, key, changedAt(copy[key], rest, replacement))
  return copy
}
const REMOVE = Symbol("remove")

const EXTRA_KEYS = ["__proto__", "constructor", "prototype", "isStaff", "is_staff", "user_id", "id", ""]

/**
 * Mostly a value the schema accepts; otherwise the same with one node (anywhere in it) swapped
 * for a hostile value, a node left out, a key added (prototype names among them), or nothing of it left.
 */
export function mutated(valid: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
  const pick = <T>(items: ReadonlyArray<T>, index: number): T => items[index % items.length] as T
  return fc.oneof(
    { weight: 3, arbitrary: valid },
    {
      weight: 4,
      arbitrary: fc.tuple(valid, fc.nat(), hostileValue).map(([value, index, bad]) => changedAt(value, pick(pathsOf(value), index), bad))
    },
    { weight: 1, arbitrary: fc.tuple(valid, fc.nat()).map(([value, index]) => changedAt(value, pick(pathsOf(value), index), REMOVE)) },
    {
      weight: 2,
      arbitrary: fc.tuple(valid, fc.constantFrom(...EXTRA_KEYS), hostileValue).map(([value, key, extra]) => {
        if (typeof value !== "object" || value === null || Array.isArray(value)) return value
        return changedAt(value, [key], extra)
      })
    },
    { weight: 1, arbitrary: hostileValue }
  )
}

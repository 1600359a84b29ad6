import * as Arbitrary from "effect/Arbitrary"
import * as Effect from "effect/Effect"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import * as AST from "effect/SchemaAST"
import fc from "fast-check"

// Effect derives generators from schemas, but runs them with its own engine and gives up on a
// refinement it cannot build values for (a calendar day, a time zone, a category: predicates it
// can only filter by). So fast-check draws a seed and Effect samples one value from it
// (replayable: the seed is part of fast-check's run), and the parts Effect cannot derive are built
// from the schema's AST here, from values such fields tend to hold, kept mostly to those the
// schema accepts.

const SEEDS_TRIED = 20
const PROBES = 50
/** Below this share of accepted values, filtering would spin: the values are used as they come. */
const WORTH_FILTERING = 0.05

const TEXT_CANDIDATES: ReadonlyArray<fc.Arbitrary<string>> = [
  fc.constantFrom(...Intl.supportedValuesOf("timeZone"), "UTC"),
  fc
    .date({ min: new Date(Date.UTC(1990, 0, 1)), max: new Date(Date.UTC(2100, 0, 1)), noInvalidDate: true })
    .map((day) => day.toISOString().slice(0, 10)),
  fc.date({ noInvalidDate: true }).map((instant) => instant.toISOString()),
  fc.string()
]
const NUMBER_CANDIDATES: ReadonlyArray<fc.Arbitrary<number>> = [
  fc.integer({ min: 0, max: 10 }),
  fc.integer({ min: -1000, max: 1000 }),
  fc.integer(),
  fc.double({ noNaN: true })
]

type Sampler = (seed: number) => Result.Result<unknown, unknown>

function effectSampler(ast: AST.AST): Sampler | undefined {
  try {
    const arbitrary = Arbitrary.schema(Schema.make(ast))
    const sample: Sampler = (seed) =>
      Effect.runSync(Effect.result(Arbitrary.sampleEffect(arbitrary, { count: 1, seed }).pipe(Effect.map((values) => values[0]))))
    for (let seed = 0; seed < SEEDS_TRIED; seed++) if (Result.isFailure(sample(seed))) return undefined
    return sample
  } catch {
    return undefined
  }
}

const acceptedShare = (arbitrary: fc.Arbitrary<unknown>, accepts: (value: unknown) => boolean): number =>
  fc.sample(arbitrary, { numRuns: PROBES, seed: 1 }).filter(accepts).length / PROBES

/** Mostly values the node accepts, when a fair share of them does; now and then any of them. */
function mostlyAccepted(ast: AST.AST, arbitrary: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
  const accepts = Schema.is(Schema.make<Schema.Top>(ast))
  const share = acceptedShare(arbitrary, accepts)
  if (share === 1 || share < WORTH_FILTERING) return arbitrary
  return fc.oneof({ weight: 4, arbitrary: arbitrary.filter(accepts) }, { weight: 1, arbitrary })
}

function fromAst(ast: AST.AST): fc.Arbitrary<unknown> {
  const sampler = effectSampler(ast)
  const built = mostlyAccepted(ast, assembled(ast))
  if (sampler === undefined) return built
  return fc.integer({ min: 0, max: 0x7fffffff }).chain((seed) => {
    const sampled = sampler(seed)
    return Result.isSuccess(sampled) ? fc.constant(sampled.success) : built
  })
}

/** Of the candidates, those that give a fair share of values the leaf accepts (all of them if none does). */
function leaf(ast: AST.AST, candidates: ReadonlyArray<fc.Arbitrary<unknown>>): fc.Arbitrary<unknown> {
  const accepts = Schema.is(Schema.make<Schema.Top>(ast))
  const fitting = candidates.filter((candidate) => acceptedShare(candidate, accepts) >= WORTH_FILTERING)
  return fc.oneof(...(fitting.length > 0 ? fitting : candidates))
}

function assembled(ast: AST.AST): fc.Arbitrary<unknown> {
  switch (ast._tag) {
    case "Objects": {
      const fields: Record<string, fc.Arbitrary<unknown>> = {}
      const requiredKeys: Array<string> = []
      for (const property of ast.propertySignatures) {
        const key = String(property.name)
        fields[key] = fromAst(property.type)
        if (!AST.isOptional(property.type)) requiredKeys.push(key)
      }
      return fc.record(fields, { requiredKeys })
    }
    case "Arrays": {
      const head = fc.tuple(...ast.elements.map(fromAst))
      const [rest] = ast.rest
      if (rest === undefined) return head
      return fc.tuple(head, fc.array(fromAst(rest), { maxLength: 5 })).map(([first, more]) => [...first, ...more])
    }
    case "Union":
      return fc.oneof(...ast.types.map(fromAst))
    case "Literal":
      return fc.constant(ast.literal)
    case "String":
      return leaf(ast, TEXT_CANDIDATES)
    case "Number":
      return leaf(ast, NUMBER_CANDIDATES)
    case "Boolean":
      return fc.boolean()
    case "Null":
      return fc.constant(null)
    default:
      return fc.jsonValue()
  }
}

/**
 * Values a schema means to accept, as sent on the wire (its encoded side). Nearly all decode; the
 * few that do not are one more kind of bad input.
 */
export function schemaArbitrary(schema: Schema.Top): fc.Arbitrary<unknown> {
  const encode = Schema.encodeUnknownResult(schema as Schema.Codec<unknown, unknown>)
  const toWire = (value: unknown) => {
    const encoded = encode(value)
    return Result.isSuccess(encoded) ? encoded.success : value
  }
  return fromAst(AST.toType(schema.ast)).map(toWire)
}

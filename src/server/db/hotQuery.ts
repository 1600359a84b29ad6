import type { Compilable, CompiledQuery, Kysely } from "kysely"
import type { Tables } from "./schema.ts"

/**
 * A query built and compiled once per database, then run with new parameters: building a Kysely
 * query costs more than running a small indexed one, and the hottest queries (the session of every
 * request, the stream list) are the same SQL every time. `build` receives placeholders in place of
 * the arguments; each must reach the SQL as a bound parameter, not be inspected or transformed.
 */
export function hotQuery<Args extends ReadonlyArray<string | number>, Row>(
  build: (db: Kysely<Tables>, ...args: { [K in keyof Args]: Args[K] }) => Compilable<Row>
): (db: Kysely<Tables>, ...args: Args) => Promise<Array<Row>> {
  const compiled = new WeakMap<Kysely<Tables>, { query: CompiledQuery<Row>; slots: Array<number> }>()
  return async (db, ...args) => {
    let entry = compiled.get(db)
    if (entry === undefined) {
      const placeholders = args.map((_, n) => `\u0000hot-query-argument-${n}\u0000`)
      const query = build(db, ...(placeholders as unknown as { [K in keyof Args]: Args[K] })).compile()
      const slots = query.parameters.map((value) => placeholders.indexOf(value as string))
      if (placeholders.some((placeholder) => !query.parameters.includes(placeholder))) {
        throw new Error("hotQuery: every argument must become a bound parameter")
      }
      entry = { query, slots }
      // transactions are short-lived and would only fill the map
      if (!db.isTransaction) compiled.set(db, entry)
    }
    const { query, slots } = entry
    const parameters = query.parameters.map((value, n) => {
      const slot = slots[n] ?? -1
      return slot === -1 ? value : args[slot]
    })
    const result = await db.executeQuery<Row>({ ...query, parameters })
    return result.rows
  }
}

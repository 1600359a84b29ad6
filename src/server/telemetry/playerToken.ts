import type { Kysely } from "kysely"
import type { Tables } from "../db/schema.ts"

export async function hasNoMetering(db: Kysely<Tables>, userId: number): Promise<boolean> {
  const row = await db.selectFrom("player_permissions").select("no_metering").where("user_id", "=", userId).executeTakeFirst()
  return row?.no_metering === true
}

/** Grants or withdraws the no-metering permission, e.g. for operators testing streams. */
export async function setNoMetering(db: Kysely<Tables>, userId: number, noMetering: boolean): Promise<void> {
  await db
    .insertInto("player_permissions")
    .values({ user_id: userId, no_metering: noMetering })
    .onConflict((oc) => oc.column("user_id").doUpdateSet({ no_metering: noMetering }))
    .execute()
}

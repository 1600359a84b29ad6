import { createHash } from "node:crypto"
import type { Kysely } from "kysely"
import type { Tables } from "../db/schema.ts"

/**
 * The player token of a session: what the player sends as metering `token_id` and what staff see
 * in the live connections. Derived from the stored session hash, so it needs no storage of its
 * own, differs per device, dies with the session, and reveals nothing that would let anyone act
 * as the session: every telemetry call still needs the session's own Token header.
 */
export const playerTokenOf = (sessionTokenHash: string): string =>
  createHash("sha256").update(`player-token\0${sessionTokenHash}`).digest("base64url").slice(0, 16)

export async function hasNoMetering(db: Kysely<Tables>, userId: number): Promise<boolean> {
  const row = await db.selectFrom("player_permissions").select("no_metering").where("user_id", "=", userId).executeTakeFirst()
  return row?.no_metering === true
}

/** Grants or withdraws the no-metering permission, e.g. for operators testing streams. */
export async function setNoMetering(db: Kysely<Tables>, userId: number, noMetering: boolean): Promise<void> {
  await db.insertInto("player_permissions")
    .values({ user_id: userId, no_metering: noMetering })
    .onConflict((oc) => oc.column("user_id").doUpdateSet({ no_metering: noMetering }))
    .execute()
}

import type { Kysely } from "kysely"
import type { InvitationRow, Tables, Timestamp, UserRow } from "../db/schema.ts"

export interface NewInvitation {
  inviter_id: number
  new_user_id: number
  new_user_email: string
  created_at: Timestamp
}

export async function insertInvitation(db: Kysely<Tables>, input: NewInvitation): Promise<InvitationRow> {
  return db
    .insertInto("invitations")
    .values({ ...input, reward_given: null })
    .returningAll()
    .executeTakeFirstOrThrow()
}

/** Newest first, as the invites page lists them. */
export async function listInvitationsByInviter(db: Kysely<Tables>, inviterId: number): Promise<InvitationRow[]> {
  return db
    .selectFrom("invitations")
    .selectAll()
    .where("inviter_id", "=", inviterId)
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .execute()
}

/**
 * Marks the invitation of a newly verified account completed and answers it with the inviter to
 * reward; undefined when there is none or it was completed already.
 */
export async function completeInvitation(
  db: Kysely<Tables>,
  newUserId: number,
  at: Timestamp
): Promise<{ readonly id: number; readonly inviterId: number } | undefined> {
  const row = await db
    .updateTable("invitations")
    .set({ reward_given: at })
    .where("new_user_id", "=", newUserId)
    .where("reward_given", "is", null)
    .returning(["id", "inviter_id"])
    .executeTakeFirst()
  return row === undefined ? undefined : { id: row.id, inviterId: row.inviter_id }
}

/** Accounts registered through one inviter's link after `since`, and when the earliest of them was. */
export async function signUpsThroughInviter(
  db: Kysely<Tables>,
  inviterId: number,
  since: Timestamp
): Promise<{ count: number; earliest: Timestamp | undefined }> {
  const row = await db
    .selectFrom("invitations")
    .select((eb) => [eb.fn.countAll<number>().as("count"), eb.fn.min("created_at").as("earliest")])
    .where("inviter_id", "=", inviterId)
    .where("created_at", ">", since)
    .executeTakeFirstOrThrow()
  return { count: Number(row.count), earliest: row.earliest ?? undefined }
}

/** The active account whose invite link this is. */
export async function findActiveUserByInviteToken(db: Kysely<Tables>, inviteToken: string): Promise<UserRow | undefined> {
  return db.selectFrom("users").selectAll().where("invite_token", "=", inviteToken).where("is_active", "=", true).executeTakeFirst()
}

/** An account's invite link, by id or by email. */
export async function findInviter(
  db: Kysely<Tables>,
  by: { readonly id: number } | { readonly email: string }
): Promise<Pick<UserRow, "email" | "invite_token" | "is_active"> | undefined> {
  const query = db.selectFrom("users").select(["email", "invite_token", "is_active"])
  return ("id" in by ? query.where("id", "=", by.id) : query.where("email", "=", by.email)).executeTakeFirst()
}

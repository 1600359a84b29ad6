import type { Kysely } from "kysely"
import type { Tables, Timestamp, UserRow } from "../db/schema.ts"
import { sessionsChanged } from "./sessionCache.ts"

export interface NewUserInput {
  username: string
  email: string
  password_hash: string
  invite_token: string
  is_staff?: boolean
  is_active?: boolean
  email_verified_at?: Timestamp | null
  created_at?: Timestamp
}

// Emails are compared case-insensitively everywhere; storing them lower-cased lets the unique
// index enforce that without a functional index both dialects would spell differently.
const normaliseEmail = (email: string): string => email.trim().toLowerCase()

/** Throws a unique violation (see `isUniqueViolation`) when the email or invite token is taken. */
export async function insertUser(db: Kysely<Tables>, input: NewUserInput): Promise<UserRow> {
  return db
    .insertInto("users")
    .values({
      username: input.username,
      email: normaliseEmail(input.email),
      password_hash: input.password_hash,
      invite_token: input.invite_token,
      is_staff: input.is_staff ?? false,
      is_active: input.is_active ?? true,
      email_verified_at: input.email_verified_at ?? null,
      created_at: input.created_at ?? new Date().toISOString()
    })
    .returningAll()
    .executeTakeFirstOrThrow()
}

export async function findUserByEmail(db: Kysely<Tables>, email: string): Promise<UserRow | undefined> {
  return db.selectFrom("users").selectAll().where("email", "=", normaliseEmail(email)).executeTakeFirst()
}

export async function findUserById(db: Kysely<Tables>, id: number): Promise<UserRow | undefined> {
  return db.selectFrom("users").selectAll().where("id", "=", id).executeTakeFirst()
}

/** Staff accounts, active or not; zero means the server should bootstrap one. */
export async function countStaff(db: Kysely<Tables>): Promise<number> {
  const row = await db
    .selectFrom("users")
    .select((eb) => eb.fn.countAll<number>().as("count"))
    .where("is_staff", "=", true)
    .executeTakeFirstOrThrow()
  return row.count
}

/** Returns false when no such user exists. */
export async function updatePasswordHash(db: Kysely<Tables>, id: number, passwordHash: string): Promise<boolean> {
  const result = await db.updateTable("users").set({ password_hash: passwordHash }).where("id", "=", id).executeTakeFirst()
  sessionsChanged()
  return result.numUpdatedRows > 0n
}

/** Lets an account sign in again, or stops it; returns false when no such user exists. */
export async function setActive(db: Kysely<Tables>, id: number, active: boolean): Promise<boolean> {
  const result = await db.updateTable("users").set({ is_active: active }).where("id", "=", id).executeTakeFirst()
  sessionsChanged()
  return result.numUpdatedRows > 0n
}

export async function listUsers(db: Kysely<Tables>): Promise<UserRow[]> {
  return db.selectFrom("users").selectAll().orderBy("id").execute()
}

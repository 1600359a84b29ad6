import { randomBytes } from "node:crypto"
import type { Kysely } from "kysely"
import { isUniqueViolation } from "../db/database.ts"
import type { Tables } from "../db/schema.ts"
import { hashPassword } from "./passwords.ts"
import { countStaff, findUserByEmail, insertUser } from "./usersRepo.ts"

export const STAFF_EMAIL = "admin@streamhub.local"

/**
 * A staff account with a random password when there is none, so a fresh install can be signed
 * into; answers its credentials, which exist nowhere else, or undefined when staff exist.
 */
export async function seedStaff(db: Kysely<Tables>, now: string): Promise<{ email: string; password: string } | undefined> {
  if ((await countStaff(db)) > 0) return undefined
  const holder = await findUserByEmail(db, STAFF_EMAIL)
  // Another instance starting at the same moment may have created it since the count.
  if (holder?.is_staff === true) return undefined
  // A customer may already hold the usual address; never take over their account.
  const email = holder === undefined ? STAFF_EMAIL : `admin-${randomBytes(3).toString("hex")}@streamhub.local`
  const password = randomBytes(18).toString("base64url")
  try {
    await insertUser(db, {
      username: "admin",
      email,
      password_hash: await hashPassword(password),
      invite_token: randomBytes(16).toString("base64url"),
      is_staff: true,
      email_verified_at: now,
      created_at: now
    })
  } catch (error) {
    // Lost the address to another instance's bootstrap: its account is the staff account, and
    // that instance prints its credentials.
    if (isUniqueViolation(error) && (await countStaff(db)) > 0) return undefined
    throw error
  }
  return { email, password }
}

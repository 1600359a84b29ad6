import { randomBytes } from "node:crypto"
import { passwordRule, usernameFromEmail, usernameRule } from "../../domain/Validation.ts"
import { audit } from "../audit/auditFeature.ts"
import {
  type Args,
  type Command,
  type CommandContext,
  CommandFailure,
  optionalText,
  requireEmail,
  requireText,
  table,
  UsageError
} from "../cli/command.ts"
import { isUniqueViolation } from "../db/database.ts"
import type { UserRow } from "../db/schema.ts"
import { hashPassword } from "./passwords.ts"
import { deleteSessionsOfUser } from "./sessionsRepo.ts"
import { findUserByEmail, insertUser, listUsers, setActive, updatePasswordHash } from "./usersRepo.ts"

const validPassword = (text: string): string => {
  const message = passwordRule(text)
  if (message !== undefined) throw new UsageError(`--password: ${message}`)
  return text
}

export const userCreate: Command = {
  name: "user:create",
  usage: "--email E --password P [--username U] [--staff]",
  summary: "Create a verified account (staff with --staff)",
  options: { email: { type: "string" }, password: { type: "string" }, username: { type: "string" }, staff: { type: "boolean" } },
  async run(args, { db, out, now, operator }) {
    const email = requireEmail(args)
    const password = validPassword(requireText(args, "password"))
    const username = (optionalText(args, "username") ?? usernameFromEmail(email)).trim()
    const usernameMessage = usernameRule(username)
    if (usernameMessage !== undefined) throw new UsageError(`--username: ${usernameMessage}`)
    const isStaff = args.staff === true
    const ms = now()
    const at = new Date(ms).toISOString()
    const passwordHash = await hashPassword(password)
    try {
      const user = await db.transaction().execute(async (trx) => {
        const created = await insertUser(trx, {
          username,
          email,
          password_hash: passwordHash,
          invite_token: randomBytes(16).toString("base64url"),
          is_staff: isStaff,
          email_verified_at: at,
          created_at: at
        })
        await audit.record(
          trx,
          audit.operator(operator),
          {
            action: "user.create",
            target: accountTarget(created),
            detail: `${isStaff ? "staff" : "customer"}, username ${created.username}`
          },
          ms
        )
        return created
      })
      out(`Created ${isStaff ? "staff" : "customer"} account ${user.email} (id ${user.id}, username ${user.username})`)
      return 0
    } catch (error) {
      if (isUniqueViolation(error)) throw new CommandFailure(`An account with email ${email} already exists`)
      throw error
    }
  }
}

export const userPassword: Command = {
  name: "user:password",
  usage: "--email E --password P",
  summary: "Set an account's password and sign it out everywhere",
  options: { email: { type: "string" }, password: { type: "string" } },
  async run(args, { db, out, now, operator }) {
    const password = validPassword(requireText(args, "password"))
    const user = await accountOf(args, db)
    const passwordHash = await hashPassword(password)
    const ended = await db.transaction().execute(async (trx) => {
      await updatePasswordHash(trx, user.id, passwordHash)
      const count = await deleteSessionsOfUser(trx, user.id)
      await audit.record(
        trx,
        audit.operator(operator),
        { action: "user.password", target: accountTarget(user), detail: `password replaced; ${count} session(s) ended` },
        now()
      )
      return count
    })
    out(`Password updated for ${user.email}; ${ended} session(s) ended`)
    return 0
  }
}

/** An account as the audit log names it. */
const accountTarget = (user: Pick<UserRow, "id" | "email">): string => `user ${user.id} (${user.email})`

/** The account an --email names; an address with no account is the operator's mistake, said plainly. */
const accountOf = async (args: Args, db: CommandContext["db"]): Promise<UserRow> => {
  const email = requireEmail(args)
  const user = await findUserByEmail(db, email)
  if (user === undefined) throw new CommandFailure(`No account with email ${email}`)
  return user
}

export const userDisable: Command = {
  name: "user:disable",
  usage: "--email E",
  summary: "Stop an account: it is signed out everywhere, its players stop and it cannot sign in until enabled",
  options: { email: { type: "string" } },
  async run(args, { db, out, now, operator }) {
    const user = await accountOf(args, db)
    const ended = await db.transaction().execute(async (trx) => {
      await setActive(trx, user.id, false)
      const count = await deleteSessionsOfUser(trx, user.id)
      await audit.record(
        trx,
        audit.operator(operator),
        { action: "user.disable", target: accountTarget(user), detail: `${count} session(s) ended` },
        now()
      )
      return count
    })
    out(`Disabled ${user.email}; ${ended} session(s) ended`)
    return 0
  }
}

export const userEnable: Command = {
  name: "user:enable",
  usage: "--email E",
  summary: "Let a disabled account sign in again",
  options: { email: { type: "string" } },
  async run(args, { db, out, now, operator }) {
    const user = await accountOf(args, db)
    await db.transaction().execute(async (trx) => {
      await setActive(trx, user.id, true)
      await audit.record(
        trx,
        audit.operator(operator),
        { action: "user.enable", target: accountTarget(user), detail: user.is_active ? "was already enabled" : "" },
        now()
      )
    })
    out(user.is_active ? `${user.email} was already enabled` : `Enabled ${user.email}; it can sign in again`)
    return 0
  }
}

export const userList: Command = {
  name: "user:list",
  usage: "",
  summary: "List accounts",
  options: {},
  async run(_args, { db, out }) {
    const users = await listUsers(db)
    if (users.length === 0) {
      out("No accounts")
      return 0
    }
    const yes = (flag: boolean) => (flag ? "yes" : "no")
    out(
      table(
        ["id", "email", "username", "staff", "active", "verified", "created"],
        users.map((u) => [
          String(u.id),
          u.email,
          u.username,
          yes(u.is_staff),
          yes(u.is_active),
          yes(u.email_verified_at !== null),
          u.created_at.slice(0, 10)
        ])
      )
    )
    return 0
  }
}

import { copyFile, mkdtemp, rm } from "node:fs/promises"
import os from "node:os"
import path from "node:path"
import type { FastifyInstance } from "fastify"
import { afterAll } from "vitest"
import { api, type BodyOf, type EndpointName, type ParamsOf } from "../../src/domain/contract/api.ts"
import { buildPath } from "../../src/domain/contract/endpoint.ts"
import { verifyPassword } from "../../src/server/account/passwords.ts"
import { findUserByEmail } from "../../src/server/account/usersRepo.ts"
import { buildApp } from "../../src/server/app.ts"
import { loadConfig } from "../../src/server/config.ts"
import type { Db } from "../../src/server/db/database.ts"
import { openDatabase } from "../../src/server/db/database.ts"
import { migrateToLatest } from "../../src/server/db/migrations.ts"
import type { MailKind, OutboxRow } from "../../src/server/db/schema.ts"
import { firstLink } from "../../src/server/mail/messages.ts"
import { assertServerCanAnswer, injectFetch } from "./injectFetch.ts"
import { DEFAULT_PASSWORD, realNow, type Seed, type SeededUser, seedDatabase } from "./serverSeed.ts"

/** The page's origin under jsdom; the server mails links to it, so they open in the app. */
export const ORIGIN = "http://localhost:3000"

// Migrating costs more than the rest of a server's start: migrate once per file, copy per server.
let template: Promise<string> | undefined
const migratedTemplate = () =>
  (template ??= (async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), "streamhub-ui-template-"))
    const db = await openDatabase({ dataDir: dir })
    await migrateToLatest(db)
    // closing checkpoints the WAL into app.db, so the one file is the whole database
    await db.close()
    return dir
  })())
afterAll(async () => {
  if (template !== undefined) await rm(await template, { recursive: true, force: true })
  template = undefined
})

export type InProcessServer = Awaited<ReturnType<typeof startInProcessServer>>

/** The real server (`buildApp`) over a fresh SQLite database, answering through `app.inject`. */
export async function startInProcessServer(seed: Seed = {}) {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), "streamhub-ui-"))
  await copyFile(path.join(await migratedTemplate(), "app.db"), path.join(dataDir, "app.db"))
  const db: Db = await openDatabase({ dataDir })
  let app: FastifyInstance | undefined
  const dispose = async () => {
    await app?.close()
    await db.close()
    await rm(dataDir, { recursive: true, force: true })
  }
  try {
    const config = loadConfig({ DATA_DIR: dataDir, STATIC_DIR: dataDir, PUBLIC_URL: ORIGIN })
    // the housekeeping pass would only prune rows a test may still be looking at
    app = await buildApp({ config, db, now: realNow, housekeeping: { firstAfterMs: 24 * 60 * 60 * 1000 } })
    const users = await seedDatabase(db, seed)
    return { app, db, users, ...accountHelpers(app, db, users), dispose }
  } catch (error) {
    await dispose()
    throw error
  }
}

interface Call<N extends EndpointName> {
  readonly token?: string
  readonly body?: BodyOf<N>
  readonly params?: ParamsOf<N>
}

/** What a test does to the accounts from outside the page: another device, a mail client. */
function accountHelpers(app: FastifyInstance, db: Db, users: ReadonlyArray<SeededUser>) {
  const call = async <N extends EndpointName>(name: N, options: Call<N> = {}): Promise<Record<string, unknown>> => {
    assertServerCanAnswer()
    const endpoint = api[name]
    const response = await app.inject({
      method: endpoint.method,
      url: buildPath(endpoint.path, options.params as Record<string, string> | undefined),
      headers: options.token === undefined ? {} : { token: options.token },
      ...(options.body === undefined ? {} : { payload: options.body as object })
    })
    return response.json()
  }
  const passwordOf = (email: string) => users.find((user) => user.email === email.toLowerCase())?.password ?? DEFAULT_PASSWORD

  const signIn = async (email: string, password = passwordOf(email)): Promise<string> => {
    const answer = await call("login", { body: { email, password, isMobile: false } })
    if (answer.success !== true || typeof answer.token !== "string")
      throw new Error(`sign-in of ${email} refused: ${JSON.stringify(answer)}`)
    return answer.token
  }

  /** The newest mail to `to` (of `kind`, if given). */
  const lastMail = async (to: string, kind?: MailKind): Promise<OutboxRow | undefined> => {
    let query = db.kysely.selectFrom("outbox").selectAll().where("to_address", "=", to.toLowerCase())
    if (kind !== undefined) query = query.where("kind", "=", kind)
    return query.orderBy("id", "desc").executeTakeFirst()
  }

  /** Path and query of the link in the newest mail to `to`, as the app routes it. */
  const mailedLink = async (to: string, kind?: MailKind): Promise<string> => {
    const mail = await lastMail(to, kind)
    const link = firstLink(mail?.text_body ?? "")
    if (link === undefined) throw new Error(`no mail with a link to ${to}${kind === undefined ? "" : ` (${kind})`}`)
    const url = new URL(link)
    return `${url.pathname}${url.search}`
  }

  return {
    fetch: injectFetch(app, ORIGIN),
    call,
    signIn,
    mailedLink,
    mailCount: async (): Promise<number> => (await db.kysely.selectFrom("outbox").select("id").execute()).length,
    user: (email: string) => findUserByEmail(db.kysely, email),
    passwordMatches: async (email: string, password: string) =>
      verifyPassword(password, (await findUserByEmail(db.kysely, email))?.password_hash ?? ""),
    isSignedIn: async (token: string) => (await call("isAuthenticated", { token })).success === true,
    /** Ends every session of the account from another device, as "Log out all devices" there does. */
    endSessionsElsewhere: async (email: string) => {
      await call("logoutAll", { token: await signIn(email) })
    },
    /** Asks for a reset link as the forgot-password page does and answers the link mailed. */
    passwordResetLink: async (email: string) => {
      await call("createPasswordReset", { body: { email } })
      return mailedLink(email, "reset")
    },
    /** Asks to move the account to `newEmail` from the profile page and answers the link mailed there. */
    emailChangeLink: async (email: string, newEmail: string) => {
      const user = await findUserByEmail(db.kysely, email)
      await call("updateUsernameAndEmail", {
        token: await signIn(email),
        body: { username: user?.username ?? "", email: newEmail, password: passwordOf(email) }
      })
      return mailedLink(newEmail, "email-change")
    }
  }
}

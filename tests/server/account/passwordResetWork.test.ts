import type { FastifyRequest } from "fastify"
import { describe, expect, it } from "vitest"
import type { AccountLimiter } from "../../../src/server/account/accountLimiter.ts"
import { passwordResetHandlers } from "../../../src/server/account/passwordResetHandlers.ts"
import type { SignUpLimiter } from "../../../src/server/account/signUpLimiter.ts"
import { insertUser } from "../../../src/server/account/usersRepo.ts"
import type { Counters } from "../../../src/server/http/counters.ts"
import { dialects } from "../../support/dbHarness.ts"

// An answer that took longer for a registered address would tell who has an account: both kinds
// of request must do the same work. What each sends the database is compared statement by
// statement (the values aside); only the end of the savepoint that keeps or drops the mail differs.
describe.each(dialects)("forgot password, registered or not ($name)", (dialect) => {
  it("sends the database the same statements, so it answers in the same time", async () => {
    const test = await dialect.create()
    try {
      let statements: Array<string> = []
      const db = test.db.kysely.withPlugin({
        transformQuery: ({ node }) => {
          statements.push(node.kind === "RawNode" ? `raw ${JSON.stringify(node.sqlFragments)}` : node.kind)
          return node
        },
        transformResult: async ({ result }) => result
      })
      await insertUser(test.db.kysely, {
        email: "someone@example.com",
        username: "someone",
        password_hash: "not used here",
        invite_token: "invite",
        email_verified_at: new Date().toISOString()
      })
      const limiter = { isKnown: async () => false } as unknown as AccountLimiter
      const handlers = passwordResetHandlers({
        db,
        now: () => Date.UTC(2026, 0, 15, 12),
        publicUrl: "http://localhost:8080",
        mailWorker: { wake: () => undefined },
        accountLimiter: limiter,
        signUpLimiter: {} as SignUpLimiter,
        counters: {} as Counters
      })
      const ask = async (email: string, ip: string) => {
        statements = []
        const request = { ip, headers: {} } as unknown as FastifyRequest
        const call = handlers.createPasswordReset as unknown as (input: unknown) => Promise<unknown>
        expect(await call({ body: { email }, request })).toMatchObject({ success: true })
        return statements
      }
      const unknown = await ask("nobody@example.com", "10.1.0.1")
      const known = await ask("someone@example.com", "10.1.0.2")
      const savepointEnd = (list: Array<string>) => list.map((s) => s.replace(/rollback to savepoint|release savepoint/, "end savepoint"))
      expect(known.length).toBeGreaterThan(5)
      expect(savepointEnd(unknown)).toEqual(savepointEnd(known))
      expect(known.join("\n")).toContain("release savepoint")
      expect(unknown.join("\n")).toContain("rollback to savepoint")
    } finally {
      await test.dispose()
    }
  })
})

import { describe, expect, it } from "vitest"
import { staticGraph } from "../../support/staticGraph.ts"

describe("the server's start", () => {
  it("loads neither the mail library nor PostgreSQL's client: the first mail and a DATABASE_URL bring them", () => {
    const { packages } = staticGraph("src/server/serve.ts")
    expect([...packages].filter((name) => name === "nodemailer" || name === "pg")).toEqual([])
    // the graph is followed: the server's own framework and database layer are in it
    expect([...packages]).toEqual(expect.arrayContaining(["fastify", "kysely"]))
  })
})

import { fireEvent, screen, waitFor } from "@testing-library/react"
import { afterEach, describe, expect, it } from "vitest"
import { MISSING_TOKEN_MESSAGE } from "../../../src/machines/shared/mailedLink.ts"
import { issueSignInLink } from "../../../src/server/account/signInLinks.ts"
import type { InProcessServer } from "../../support/inProcessServer.ts"
import { renderApp, resetApp } from "../../support/renderApp.tsx"
import { realNow } from "../../support/serverSeed.ts"

const ANN = "ann@example.com"
const BOB = "bob@example.com"
const USED = "This sign-in link has already been used. Sign in with your email and password."
const NOT_VALID = "This sign-in link is not valid. Sign in with your email and password."

/** A link as the server mails it to `email` when its new networks may sign in only by email. */
const signInLink = async (server: InProcessServer, email: string): Promise<string> => {
  const user = server.users.find((candidate) => candidate.email === email)
  if (user === undefined) throw new Error(`${email} is not seeded`)
  return `/sign-in-link?token=${await issueSignInLink(server.db.kysely, user.id, realNow())}`
}

/** Answers the first call to `path` with a server error. */
const failingOnce =
  (path: string) =>
  (fetch: typeof globalThis.fetch): typeof globalThis.fetch => {
    let failed = false
    return async (input, init) => {
      if (!failed && new URL(String(input), "http://localhost").pathname === path) {
        failed = true
        return new Response(JSON.stringify({ success: false, status: 500, detail: "Internal error" }), {
          status: 500,
          headers: { "content-type": "application/json" }
        })
      }
      return fetch(input, init)
    }
  }

const expectSignedInAs = async (rendered: Awaited<ReturnType<typeof renderApp>>, email: string) => {
  expect(await screen.findByRole("list", { name: "Streams" })).toBeTruthy()
  expect(screen.getByRole("banner")).toBeTruthy()
  expect(window.location.pathname).toBe("/")
  const token = rendered.storage.getToken()
  expect(token).not.toBeNull()
  expect(await rendered.server.call("userInfo", { token: token ?? "", body: {} })).toMatchObject({ data: { email } })
}

describe("/sign-in-link, the link mailed when an account signs in new networks only by email", () => {
  afterEach(resetApp)

  it("says it is signing in, then goes home signed in, as a sign-in on /login does", async () => {
    const rendered = await renderApp({ path: (server) => signInLink(server, ANN) })
    const pending = (await screen.findByRole("heading", { name: "Signing you in…" })).closest("section")
    expect(pending?.getAttribute("aria-busy")).toBe("true")
    await waitFor(() => expect(document.title).toContain("Sign in with a link"))
    await expectSignedInAs(rendered, ANN)
    expect(rendered.calls.filter((call) => call.path === "/api/users/sign-in-link")).toHaveLength(1)
  })

  it("signs in whoever it was mailed to in a browser already signed in, in place of that session", async () => {
    const rendered = await renderApp({
      users: [{ email: ANN }, { email: BOB }],
      signedIn: true,
      path: (server) => signInLink(server, BOB)
    })
    await expectSignedInAs(rendered, BOB)
    expect(rendered.storage.getToken()).not.toBe(rendered.token)
  })

  it("says a used link has been used and offers to sign in with the password", async () => {
    const rendered = await renderApp({
      path: async (server) => {
        const link = await signInLink(server, ANN)
        await server.call("signInWithLink", { body: { token: new URLSearchParams(link.split("?")[1]).get("token") ?? "" } })
        return link
      }
    })
    expect(await screen.findByRole("heading", { name: "Sign-in link not valid" })).toBeTruthy()
    expect(screen.getByRole("alert").textContent).toContain(USED)
    expect(rendered.storage.getToken()).toBeNull()
    fireEvent.click(screen.getByRole("link", { name: "Sign in with your password" }))
    expect(await screen.findByRole("heading", { name: "Sign in" })).toBeTruthy()
    expect(window.location.pathname).toBe("/login")
  })

  it("says an unknown link is not valid, and an incomplete one is incomplete without calling", async () => {
    await renderApp({ path: "/sign-in-link?token=not-a-real-token" })
    expect((await screen.findByRole("alert")).textContent).toContain(NOT_VALID)
    await resetApp()
    const { calls } = await renderApp({ path: "/sign-in-link" })
    expect((await screen.findByRole("alert")).textContent).toContain(MISSING_TOKEN_MESSAGE)
    expect(calls.some((call) => call.path === "/api/users/sign-in-link")).toBe(false)
  })

  it("offers to try again when the server failed, and signs in then", async () => {
    const rendered = await renderApp({ path: (server) => signInLink(server, ANN), wrapFetch: failingOnce("/api/users/sign-in-link") })
    expect(await screen.findByRole("heading", { name: "Something went wrong" })).toBeTruthy()
    expect(screen.getByRole("alert").textContent).toContain("You could not be signed in just now. Please try again in a moment.")
    fireEvent.click(screen.getByRole("button", { name: "Try again" }))
    await expectSignedInAs(rendered, ANN)
  })
})

import { fireEvent, screen, waitFor, within } from "@testing-library/react"
import { afterEach, describe, expect, it } from "vitest"
import { MISSING_TOKEN_MESSAGE } from "../../../src/machines/shared/mailedLink.ts"
import { VERIFY_TOKEN_NOT_FOUND } from "../../../src/server/account/registrationHandlers.ts"
import type { InProcessServer } from "../../support/inProcessServer.ts"
import { renderApp, resetApp } from "../../support/renderApp.tsx"

const type = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } })
const inviteLink = ({ users }: InProcessServer) => `/register?invite=${users[0]?.invite_token}`

/** Answers the first call to `path` with a 429, as the server's rate limit does. */
const rateLimited =
  (path: string) =>
  (fetch: typeof globalThis.fetch): typeof globalThis.fetch => {
    let limited = false
    return async (input, init) => {
      if (!limited && new URL(String(input), "http://localhost").pathname === path) {
        limited = true
        return new Response(
          JSON.stringify({ success: false, status: 429, detail: "Too many attempts from your network. Try again in 42 seconds." }),
          {
            status: 429,
            headers: { "content-type": "application/json" }
          }
        )
      }
      return fetch(input, init)
    }
  }

describe("the public account pages", () => {
  afterEach(resetApp)

  it("links the login page to /forgot-password", async () => {
    await renderApp({ path: "/login" })
    const link = await screen.findByRole("link", { name: "Forgot password?" })
    fireEvent.click(link)
    expect(await screen.findByRole("heading", { name: "Forgot password" })).toBeTruthy()
    expect(window.location.pathname).toBe("/forgot-password")
  })

  it("asks for a valid email on /forgot-password with this page's message, announced and tied to the field", async () => {
    const { calls } = await renderApp({ path: "/forgot-password" })
    fireEvent.click(await screen.findByRole("button", { name: "Send reset link" }))
    const message = await screen.findByRole("alert")
    expect(message.textContent).toBe("Enter a valid email address.")
    const input = screen.getByLabelText("Email")
    expect(input.getAttribute("aria-invalid")).toBe("true")
    expect(input.getAttribute("aria-describedby")).toBe(message.id)
    expect(calls.some((call) => call.path === "/api/users/create-password-reset-token")).toBe(false)
  })

  it("says the same for an unknown address, and keeps the form when the request was refused by the rate limit", async () => {
    const { server } = await renderApp({ path: "/forgot-password", wrapFetch: rateLimited("/api/users/create-password-reset-token") })
    await screen.findByRole("heading", { name: "Forgot password" })
    type("Email", "nobody@example.com")
    fireEvent.submit(screen.getByRole("button", { name: "Send reset link" }))
    expect((await screen.findByRole("alert")).textContent).toBe("Too many attempts from your network. Try again in 42 seconds.")
    expect(screen.getByLabelText<HTMLInputElement>("Email").value).toBe("nobody@example.com")
    fireEvent.submit(screen.getByRole("button", { name: "Send reset link" }))
    expect(await screen.findByText("If the email is registered, reset instructions will be sent.")).toBeTruthy()
    expect(await server.mailCount()).toBe(0)
  })

  it("shows that the invite is being checked, then the form with the username it derives", async () => {
    await renderApp({ path: inviteLink })
    const pending = (await screen.findByRole("heading", { name: "Checking your invite…" })).closest("section")
    expect(pending?.getAttribute("role")).toBe("status")
    expect(pending?.getAttribute("aria-busy")).toBe("true")
    await screen.findByRole("heading", { name: "Create your account" })
    type("Email", "Jo.Smith@Example.com")
    expect(screen.getByText("Your username will be jo.smith.")).toBeTruthy()
  })

  it("keeps the registration form and what was typed after a 429", async () => {
    const { calls, server } = await renderApp({ path: inviteLink, wrapFetch: rateLimited("/api/users/register") })
    await screen.findByRole("heading", { name: "Create your account" })
    type("Email", "jo@example.com")
    type("Password", "long enough")
    type("Confirm password", "long enough")
    fireEvent.click(screen.getByRole("button", { name: "Create account" }))
    expect((await screen.findByRole("alert")).textContent).toBe("Too many attempts from your network. Try again in 42 seconds.")
    expect(screen.getByLabelText<HTMLInputElement>("Email").value).toBe("jo@example.com")
    fireEvent.click(screen.getByRole("button", { name: "Create account" }))
    expect(await screen.findByRole("heading", { name: "Success! Account created" })).toBeTruthy()
    expect(calls.filter((call) => call.path === "/api/users/register").at(-1)?.body).toEqual({
      username: "jo",
      email: "jo@example.com",
      password: "long enough",
      invitationToken: server.users[0]?.invite_token
    })
  })

  it("shows 'Invalid Token' with the server's reason for a bad verification link", async () => {
    await renderApp({ path: "/verify?token=nope" })
    expect(await screen.findByRole("heading", { name: "Verifying your email…" })).toBeTruthy()
    const result = await screen.findByRole("alert")
    expect(within(result).getByRole("heading", { name: "Invalid Token" })).toBeTruthy()
    expect(within(result).getByText(VERIFY_TOKEN_NOT_FOUND)).toBeTruthy()
    expect(within(result).getByRole("link", { name: "Sign in" }).getAttribute("href")).toBe("/login")
  })

  it("offers to try a verification link again when the server could not be reached, and then verifies", async () => {
    let failures = 1
    await renderApp({
      path: async (server) => {
        await server.call("register", {
          body: {
            username: "newcomer",
            email: "newcomer@example.com",
            password: "long enough",
            invitationToken: server.users[0]?.invite_token ?? ""
          }
        })
        return server.mailedLink("newcomer@example.com")
      },
      wrapFetch: (fetch) => async (input, init) => {
        if (String(input).endsWith("/api/users/verify-new-email-token") && failures > 0) {
          failures -= 1
          throw new TypeError("Failed to fetch")
        }
        return fetch(input, init)
      }
    })
    const result = await screen.findByRole("alert")
    expect(within(result).getByRole("heading", { name: "Something went wrong" })).toBeTruthy()
    expect(within(result).getByText("Your email could not be verified just now. Check your connection and try again.")).toBeTruthy()
    fireEvent.click(within(result).getByRole("button", { name: "Try again" }))
    expect(await screen.findByRole("heading", { name: "Account Verified" })).toBeTruthy()
  })

  it("needs no server call for a reset link without its token", async () => {
    const { calls } = await renderApp({ path: "/password-reset-confirmation" })
    expect(await screen.findByRole("heading", { name: "Password not reset" })).toBeTruthy()
    expect(screen.getByText(MISSING_TOKEN_MESSAGE)).toBeTruthy()
    expect(calls.some((call) => call.path.startsWith("/api/users/"))).toBe(false)
  })

  it("shows the reset, forgot-password and email-change pages to signed-in visitors too", async () => {
    const resetLink = (server: InProcessServer) => server.passwordResetLink("ann@example.com")
    for (const [path, heading, pathname] of [
      ["/forgot-password", "Forgot password", "/forgot-password"],
      [resetLink, "Reset your password", "/password-reset-confirmation"],
      ["/confirm-email-change?token=nope", "Email not changed", "/confirm-email-change"]
    ] as const) {
      await renderApp({ signedIn: true, path })
      expect(await screen.findByRole("heading", { name: heading })).toBeTruthy()
      await waitFor(() => expect(window.location.pathname).toBe(pathname))
      await resetApp()
    }
  })
})

import { fireEvent, screen, waitFor } from "@testing-library/react"
import { afterEach, describe, expect, it } from "vitest"
import { renderApp, resetApp } from "../../support/renderApp.tsx"
import { DEFAULT_PASSWORD } from "../../support/serverSeed.ts"
import { expectBusyWithFocus, holding, pressAgainWhileBusy, settled } from "./heldCalls.ts"

const type = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } })
const RESENT = "If this email address has an account that still needs verifying, we have sent it a new verification link."

const signInUnverified = async () => {
  type("Email", "New@Example.com")
  type("Password", DEFAULT_PASSWORD)
  fireEvent.click(screen.getByRole("button", { name: "Sign in" }))
  expect((await screen.findByRole("alert")).textContent).toBe("Email not verified")
}

describe("/login for an account whose email is not verified yet", () => {
  afterEach(resetApp)

  it("offers to send the verification email again, busy while it goes, then says so; the mailed link verifies", async () => {
    const held = holding("/api/users/resend-verification")
    const { server } = await renderApp({
      path: "/login",
      users: [{ email: "new@example.com", verified: false }],
      wrapFetch: held.wrapFetch
    })
    await screen.findByRole("heading", { name: "Sign in" })
    await settled()
    await signInUnverified()
    const resend = screen.getByRole("button", { name: "Send the verification email again" })
    // keyboard users reach it right after the message, before Sign in
    const order = [...document.querySelectorAll("button, a[href], input")]
    expect(order.indexOf(resend)).toBeLessThan(order.indexOf(screen.getByRole("button", { name: "Sign in" })))
    resend.focus()
    fireEvent.click(resend)
    await expectBusyWithFocus(resend)
    expect(resend.textContent).toBe("Sending the verification email…")
    await pressAgainWhileBusy(resend, held)
    held.release()
    await waitFor(() => expect(screen.getByRole("status").textContent).toBe(RESENT))
    expect(resend.hasAttribute("aria-disabled")).toBe(false)
    expect(held.count()).toBe(1)
    const token = new URL(await server.mailedLink("new@example.com", "verify"), "http://localhost").searchParams.get("token") ?? ""
    expect(await server.call("verifyEmail", { body: { token } })).toMatchObject({ success: true, resultCode: 1 })
  })

  it("shows why the email could not be sent", async () => {
    const refuse =
      (fetch: typeof globalThis.fetch): typeof globalThis.fetch =>
      async (input, init) =>
        new URL(String(input), "http://localhost").pathname === "/api/users/resend-verification"
          ? new Response(
              JSON.stringify({
                success: false,
                status: 429,
                detail: "Too many verification emails asked for this email address. Try again in 59 minutes."
              }),
              {
                status: 429,
                headers: { "content-type": "application/json" }
              }
            )
          : fetch(input, init)
    await renderApp({ path: "/login", users: [{ email: "new@example.com", verified: false }], wrapFetch: refuse })
    await screen.findByRole("heading", { name: "Sign in" })
    await settled()
    await signInUnverified()
    fireEvent.click(screen.getByRole("button", { name: "Send the verification email again" }))
    await waitFor(() =>
      expect(screen.getAllByRole("alert").map((alert) => alert.textContent)).toContain(
        "The verification email could not be sent. Too many verification emails asked for this email address. Try again in 59 minutes."
      )
    )
  })

  it("is not offered when the password is wrong", async () => {
    await renderApp({ path: "/login", users: [{ email: "new@example.com", verified: false }] })
    await screen.findByRole("heading", { name: "Sign in" })
    await settled()
    type("Email", "new@example.com")
    type("Password", "not the password")
    fireEvent.click(screen.getByRole("button", { name: "Sign in" }))
    expect((await screen.findByRole("alert")).textContent).toBe("Email and password do not match")
    expect(screen.queryByRole("button", { name: "Send the verification email again" })).toBeNull()
  })
})

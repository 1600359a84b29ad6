import { fireEvent, screen, waitFor } from "@testing-library/react"
import { afterEach, describe, expect, it } from "vitest"
import { renderApp, resetApp } from "./renderApp.tsx"

describe("boot and routes", () => {
  afterEach(resetApp)

  it("shows only the maintenance notice while maintenance is on", async () => {
    const { backend } = renderApp({ maintenance: true, token: "t-1" })
    expect(await screen.findByRole("heading", { name: "Scheduled maintenance" })).toBeTruthy()
    expect(screen.getByText("We are upgrading our servers.")).toBeTruthy()
    expect(screen.getByText("Please come back in about an hour.")).toBeTruthy()
    expect(screen.queryByRole("banner")).toBeNull()
    expect(backend.calls.map((call) => call.path)).toEqual(["/api/maintenance"])
  })

  it("shows a retryable error when the maintenance check fails", async () => {
    let failures = 1
    renderApp({
      wrapFetch: (fetch) => async (input, init) => {
        if (failures > 0) {
          failures -= 1
          throw new TypeError("Failed to fetch")
        }
        return fetch(input, init)
      }
    })
    expect(await screen.findByRole("heading", { name: "Something went wrong" })).toBeTruthy()
    fireEvent.click(screen.getByRole("button", { name: "Try again" }))
    expect(await screen.findByRole("heading", { name: "Sign in" })).toBeTruthy()
  })

  it("sends visitors without a session to /login", async () => {
    renderApp({ path: "/invites" })
    expect(await screen.findByRole("heading", { name: "Sign in" })).toBeTruthy()
    expect(window.location.pathname).toBe("/login")
  })

  it("sends signed-in visitors away from login, register and verify", async () => {
    for (const path of ["/login", "/register?invite=abc", "/verify?token=x"]) {
      renderApp({ token: "t-1", path })
      await waitFor(() => expect(window.location.pathname).toBe("/"))
      resetApp()
    }
  })

  it("needs an invite to register", async () => {
    renderApp({ path: "/register" })
    await waitFor(() => expect(window.location.pathname).toBe("/login"))
    resetApp()
    renderApp({ path: "/register/?invite=good-invite" })
    expect(await screen.findByRole("heading", { name: "Create your account" })).toBeTruthy()
  })

  it("keeps the other public pages public", async () => {
    for (const [path, heading] of [
      ["/forgot-password", "Forgot password"],
      ["/password-reset-confirmation?token=x", "Password not reset"],
      ["/confirm-email-change?token=x", "Email not changed"]
    ]) {
      renderApp({ path })
      expect(await screen.findByRole("heading", { name: heading })).toBeTruthy()
      resetApp()
    }
  })

  it("goes to /login and forgets the token on any 403", async () => {
    const { storage, backend } = renderApp({ token: "t-1" })
    await screen.findByRole("list", { name: "Streams" })
    backend.sessions.clear()
    fireEvent.click(screen.getByRole("button", { name: "Account" }))
    fireEvent.click(screen.getByRole("button", { name: "Log out" }))
    expect(await screen.findByRole("heading", { name: "Sign in" })).toBeTruthy()
    expect(storage.getToken()).toBeNull()
  })

  it("logs out from /logout", async () => {
    const { storage } = renderApp({ token: "t-1", path: "/logout" })
    expect(await screen.findByRole("heading", { name: "Sign in" })).toBeTruthy()
    expect(storage.getToken()).toBeNull()
  })
})

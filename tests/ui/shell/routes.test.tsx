import { act, fireEvent, screen, waitFor } from "@testing-library/react"
import { afterEach, describe, expect, it, vi } from "vitest"
import { setMaintenance } from "../../../src/server/shell/maintenanceRepo.ts"
import { renderApp, resetApp } from "../../support/renderApp.tsx"
import { DEFAULT_PASSWORD } from "../../support/serverSeed.ts"

/** A token as an earlier visit may have left it, of a session the server has since ended. */
const STALE_TOKEN = "a-token-this-server-never-issued-00000000000"
const MAINTENANCE = {
  title: "Scheduled maintenance",
  firstRowText: "We are upgrading our servers.",
  secondRowText: "Please come back in about an hour."
}

describe("boot and routes", () => {
  afterEach(resetApp)

  it("shows only the maintenance notice while maintenance is on", async () => {
    const { calls } = await renderApp({ maintenance: MAINTENANCE, signedIn: true })
    expect(await screen.findByRole("heading", { name: "Scheduled maintenance" })).toBeTruthy()
    expect(screen.getByText("We are upgrading our servers.")).toBeTruthy()
    expect(screen.getByText("Please come back in about an hour.")).toBeTruthy()
    expect(screen.queryByRole("banner")).toBeNull()
    expect(calls.map((call) => call.path)).toEqual(["/api/maintenance"])
  })

  it("leaves the maintenance notice by itself when the tab is shown again after maintenance ended", async () => {
    const { server, calls } = await renderApp({ maintenance: MAINTENANCE, path: "/login" })
    expect(await screen.findByRole("heading", { name: "Scheduled maintenance" })).toBeTruthy()
    await setMaintenance(server.db.kysely, { maintenance_mode: false })
    const shown = vi.spyOn(document, "visibilityState", "get").mockReturnValue("visible")
    try {
      act(() => {
        document.dispatchEvent(new Event("visibilitychange"))
      })
      expect(await screen.findByRole("heading", { name: "Sign in" })).toBeTruthy()
    } finally {
      shown.mockRestore()
    }
    expect(screen.queryByRole("heading", { name: "Scheduled maintenance" })).toBeNull()
    expect(calls.filter((call) => call.path === "/api/maintenance")).toHaveLength(2)
  })

  it("shows a retryable error when the maintenance check fails", async () => {
    let failures = 1
    await renderApp({
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
    await renderApp({ path: "/invites" })
    expect(await screen.findByRole("heading", { name: "Sign in" })).toBeTruthy()
    expect(window.location.pathname).toBe("/login")
  })

  it("sends signed-in visitors away from login, register and verify", async () => {
    for (const path of ["/login", "/register?invite=abc", "/verify?token=x"]) {
      await renderApp({ signedIn: true, path })
      await waitFor(() => expect(window.location.pathname).toBe("/"))
      await resetApp()
    }
  })

  it("needs an invite to register", async () => {
    await renderApp({ path: "/register" })
    await waitFor(() => expect(window.location.pathname).toBe("/login"))
    await resetApp()
    await renderApp({ path: ({ users }) => `/register/?invite=${users[0]?.invite_token}` })
    expect(await screen.findByRole("heading", { name: "Create your account" })).toBeTruthy()
  })

  it("keeps the other public pages public", async () => {
    for (const [path, heading] of [
      ["/forgot-password", "Forgot password"],
      ["/password-reset-confirmation?token=x", "Password not reset"],
      ["/confirm-email-change?token=x", "Email not changed"]
    ]) {
      await renderApp({ path })
      expect(await screen.findByRole("heading", { name: heading })).toBeTruthy()
      await resetApp()
    }
  })

  it("goes to /login and forgets the token on any 403", async () => {
    const { storage, server } = await renderApp({ signedIn: true })
    await screen.findByRole("list", { name: "Streams" })
    await server.endSessionsElsewhere("ann@example.com")
    fireEvent.click(screen.getByRole("button", { name: "Account" }))
    fireEvent.click(screen.getByRole("button", { name: "Log out" }))
    expect(await screen.findByRole("heading", { name: "Sign in" })).toBeTruthy()
    expect(storage.getToken()).toBeNull()
  })

  it("forgets a kept token the server no longer knows on a public page, and leaves the visitor there", async () => {
    window.localStorage.setItem("Token", STALE_TOKEN)
    const { storage } = await renderApp({ path: "/forgot-password" })
    expect(await screen.findByRole("heading", { name: "Forgot password" })).toBeTruthy()
    await waitFor(() => expect(storage.getToken()).toBeNull())
    expect(window.location.pathname).toBe("/forgot-password")
  })

  it("lets a mailed verify link do its work for a visitor whose kept session has ended", async () => {
    window.localStorage.setItem("Token", STALE_TOKEN)
    const { storage } = await renderApp({
      path: async (server) => {
        const answer = await server.call("register", {
          body: {
            username: "newcomer",
            email: "newcomer@example.com",
            password: DEFAULT_PASSWORD,
            invitationToken: server.users[0]?.invite_token ?? ""
          }
        })
        expect(answer).toMatchObject({ success: true })
        return server.mailedLink("newcomer@example.com")
      }
    })
    expect(await screen.findByRole("heading", { name: "Account Verified" })).toBeTruthy()
    expect(window.location.pathname).toBe("/verify")
    expect(storage.getToken()).toBeNull()
  })

  it("opens a mailed invite link for a visitor whose kept session has ended", async () => {
    window.localStorage.setItem("Token", STALE_TOKEN)
    await renderApp({ path: ({ users }) => `/register?invite=${users[0]?.invite_token}` })
    expect(await screen.findByRole("heading", { name: "Create your account" })).toBeTruthy()
    expect(window.location.pathname).toBe("/register")
  })

  it("still goes to /login on a 403 met in the signed-in area", async () => {
    window.localStorage.setItem("Token", STALE_TOKEN)
    const { storage } = await renderApp({ path: "/invites" })
    expect(await screen.findByRole("heading", { name: "Sign in" })).toBeTruthy()
    expect(window.location.pathname).toBe("/login")
    expect(storage.getToken()).toBeNull()
  })

  it("logs out from /logout", async () => {
    const { storage, calls, token } = await renderApp({ signedIn: true, path: "/logout" })
    expect(await screen.findByRole("heading", { name: "Sign in" })).toBeTruthy()
    expect(storage.getToken()).toBeNull()
    expect(calls.filter((call) => call.path === "/api/users/logout")).toEqual([expect.objectContaining({ method: "POST", token })])
  })

  it("logs out when the app navigates to /logout", async () => {
    const { storage, app } = await renderApp({ signedIn: true })
    await screen.findByRole("list", { name: "Streams" })
    await act(() => app.router.navigate("/logout"))
    expect(await screen.findByRole("heading", { name: "Sign in" })).toBeTruthy()
    expect(window.location.pathname).toBe("/login")
    expect(storage.getToken()).toBeNull()
  })

  it("keeps the session when the server refuses the logout, saying so only in the console", async () => {
    const consoleError = vi.spyOn(console, "error").mockImplementation(() => undefined)
    try {
      const { storage, token } = await renderApp({
        signedIn: true,
        path: "/logout",
        wrapFetch: (fetch) => async (input, init) =>
          String(input).endsWith("/api/users/logout")
            ? new Response(JSON.stringify({ success: false, detail: "not now" }), { headers: { "content-type": "application/json" } })
            : fetch(input, init)
      })
      expect(await screen.findByRole("link", { name: "Back to streams" })).toBeTruthy()
      expect(window.location.pathname).toBe("/logout")
      expect(storage.getToken()).toBe(token)
      expect(screen.queryByRole("alert")).toBeNull()
      expect(consoleError).toHaveBeenCalledWith("Logout failed: not now")
    } finally {
      consoleError.mockRestore()
    }
  })

  it("sends a visitor without a session from /logout to /login without calling the server", async () => {
    const { calls } = await renderApp({ path: "/logout" })
    expect(await screen.findByRole("heading", { name: "Sign in" })).toBeTruthy()
    expect(window.location.pathname).toBe("/login")
    expect(calls.some((call) => call.path === "/api/users/logout")).toBe(false)
  })
})

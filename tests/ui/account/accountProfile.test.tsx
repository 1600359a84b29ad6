import { fireEvent, screen, waitFor, within } from "@testing-library/react"
import { afterEach, describe, expect, it, vi } from "vitest"
import { renderApp, resetApp } from "../../support/renderApp.tsx"

const openProfile = async (options: Parameters<typeof renderApp>[0] = {}) => {
  const rendered = await renderApp({ signedIn: true, path: "/profile", ...options })
  await screen.findByRole("heading", { name: "Account settings" })
  return rendered
}

const form = (heading: string) => screen.getByRole("heading", { name: heading }).closest("section") as HTMLElement
const type = (scope: HTMLElement, label: string, value: string) =>
  fireEvent.change(within(scope).getByLabelText(label), { target: { value } })

const notification = async (message: string) => {
  const region = screen.getByRole("list", { name: "Notifications" })
  return (await within(region).findByText(message)).closest("li") as HTMLElement
}

describe("/profile", () => {
  afterEach(async () => {
    await resetApp()
    vi.restoreAllMocks()
  })

  it("has the three items of SPEC §2, labelled", async () => {
    await openProfile()
    expect(screen.getByRole("heading", { name: "Update email or username" })).toBeTruthy()
    expect(screen.getByRole("heading", { name: "Update password" })).toBeTruthy()
    expect(screen.getByRole("button", { name: "Log out all devices" })).toBeTruthy()
    for (const label of ["Username", "Email", "Password", "Current password", "New password", "Confirm new password"]) {
      expect(screen.getByLabelText(label)).toBeTruthy()
    }
  })

  it("needs a username", async () => {
    const { calls } = await openProfile()
    const details = form("Update email or username")
    type(details, "Username", "")
    fireEvent.click(within(details).getByRole("button", { name: "Save changes" }))
    expect(within(details).getByText("Please enter a username.").getAttribute("role")).toBe("alert")
    expect(calls.some((call) => call.path === "/api/users/updateusernameandemail")).toBe(false)
  })

  it("says 'Username updated!' and reads the user info again", async () => {
    const { calls, server } = await openProfile()
    const details = form("Update email or username")
    type(details, "Username", "annie")
    type(details, "Password", "correct horse")
    const userCalls = () => calls.filter((call) => call.path === "/api/users/user").length
    const before = userCalls()
    fireEvent.click(within(details).getByRole("button", { name: "Save changes" }))
    const item = await notification("Username updated!")
    expect(item.textContent).toContain("Success!")
    // news, not an interruption: announced by the polite list, no alert of its own
    expect(item.closest("ul")?.getAttribute("aria-live")).toBe("polite")
    expect(item.querySelector("[role=alert]")).toBeNull()
    await waitFor(() => expect(userCalls()).toBe(before + 1))
    expect((await server.user("ann@example.com"))?.username).toBe("annie")
    expect(within(details).getByLabelText<HTMLInputElement>("Password").value).toBe("")
    expect(within(details).getByLabelText<HTMLInputElement>("Username").value).toBe("annie")
  })

  it("checks the password form's rules with the exact messages", async () => {
    await openProfile()
    const password = form("Update password")
    type(password, "Current password", "short")
    type(password, "New password", "tiny")
    type(password, "Confirm new password", "other")
    fireEvent.click(within(password).getByRole("button", { name: "Update password" }))
    expect(within(password).getAllByText("Password length too short")).toHaveLength(2)
    expect(within(password).getByText("Passwords do not match")).toBeTruthy()
  })

  it("reports a wrong current password, then updates and empties the fields", async () => {
    const { server } = await openProfile()
    const password = form("Update password")
    type(password, "Current password", "wrong password")
    type(password, "New password", "new passphrase")
    type(password, "Confirm new password", "new passphrase")
    fireEvent.click(within(password).getByRole("button", { name: "Update password" }))
    const failure = await notification("Incorrect password")
    expect(failure.textContent).toContain("Failed to update password.")
    expect(failure.querySelector("[role=alert]")?.textContent).toContain("Failed to update password.")

    type(password, "Current password", "correct horse")
    fireEvent.click(within(password).getByRole("button", { name: "Update password" }))
    expect((await notification("Password has been updated!")).textContent).toContain("Success!")
    for (const label of ["Current password", "New password", "Confirm new password"]) {
      expect(within(password).getByLabelText<HTMLInputElement>(label).value).toBe("")
    }
    expect(await server.passwordMatches("ann@example.com", "new passphrase")).toBe(true)
  })

  it("logs out all devices: every session ends and this one goes to /login", async () => {
    const { server, storage, token } = await openProfile()
    const phone = await server.signIn("ann@example.com")
    fireEvent.click(screen.getByRole("button", { name: "Log out all devices" }))
    fireEvent.click(screen.getByRole("button", { name: "Confirm: log out all devices" }))
    expect(await screen.findByRole("heading", { name: "Sign in" })).toBeTruthy()
    expect(window.location.pathname).toBe("/login")
    expect(storage.getToken()).toBeNull()
    expect([await server.isSignedIn(token ?? ""), await server.isSignedIn(phone)]).toEqual([false, false])
  })

  it("asks before logging out all devices: Cancel (or Escape) leaves every session as it was, focus back on the button", async () => {
    const { server, storage, token } = await openProfile()
    const button = screen.getByRole("button", { name: "Log out all devices" })
    fireEvent.click(button)
    expect(screen.getByText(/will have to sign in again\. Press again to confirm\./)).toBeTruthy()
    fireEvent.click(screen.getByRole("button", { name: "Cancel" }))
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole("button", { name: "Log out all devices" })))
    fireEvent.click(screen.getByRole("button", { name: "Log out all devices" }))
    fireEvent.keyDown(screen.getByRole("button", { name: "Confirm: log out all devices" }), { key: "Escape" })
    expect(await screen.findByRole("button", { name: "Log out all devices" })).toBeTruthy()
    expect(screen.queryByRole("button", { name: "Cancel" })).toBeNull()
    expect(storage.getToken()).toBe(token)
    expect(await server.isSignedIn(token ?? "")).toBe(true)
  })

  it("stays put when logging out all devices fails, writing only to the console", async () => {
    const consoleError = vi.spyOn(console, "error").mockImplementation(() => {})
    const { storage, token } = await openProfile({
      wrapFetch: (fetch) => async (input, init) =>
        String(input).endsWith("/api/users/logoutall")
          ? new Response(JSON.stringify({ success: false }), { status: 200, headers: { "content-type": "application/json" } })
          : fetch(input, init)
    })
    fireEvent.click(screen.getByRole("button", { name: "Log out all devices" }))
    fireEvent.click(screen.getByRole("button", { name: "Confirm: log out all devices" }))
    await waitFor(() => expect(consoleError).toHaveBeenCalled())
    expect(screen.getByRole("button", { name: "Log out all devices" })).toBeTruthy()
    expect(storage.getToken()).toBe(token)
    expect(window.location.pathname).toBe("/profile")
  })
})

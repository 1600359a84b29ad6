import { fireEvent, screen, waitFor, within } from "@testing-library/react"
import { afterEach, describe, expect, it } from "vitest"
import { renderApp, resetApp } from "../../support/renderApp.tsx"
import { expectBusyWithFocus, holding, press, pressAgainWhileBusy, settled } from "./heldCalls.ts"

const openProfile = async (held: ReturnType<typeof holding>) => {
  const rendered = await renderApp({ signedIn: true, path: "/profile", wrapFetch: held.wrapFetch })
  await screen.findByRole("heading", { name: "Account settings" })
  await settled()
  return rendered
}

const form = (heading: string) => screen.getByRole("heading", { name: heading }).closest("section") as HTMLElement
const type = (scope: HTMLElement, label: string, value: string) =>
  fireEvent.change(within(scope).getByLabelText(label), { target: { value } })
const focused = () => document.activeElement

describe("/profile keeps the keyboard user's place", () => {
  afterEach(resetApp)

  it("'Update email or username': focus on the first field in error, a clear message past the server's limits, the focus kept while saving", async () => {
    const held = holding("/api/users/updateusernameandemail")
    const { server } = await openProfile(held)
    const details = form("Update email or username")
    const save = within(details).getByRole("button", { name: "Save changes" })
    const field = (label: string) => within(details).getByLabelText(label)
    expect(field("Username").getAttribute("maxlength")).toBe("150")
    expect(field("Password").getAttribute("maxlength")).toBe("1024")

    type(details, "Username", "")
    type(details, "Email", "nope")
    press(save)
    expect(focused()).toBe(field("Username"))
    expect(within(details).getByText("Please enter a username.")).toBeTruthy()
    type(details, "Username", "a".repeat(151))
    press(save)
    expect(within(details).getByText("Username is too long. Use at most 150 characters.").getAttribute("role")).toBe("alert")
    expect(focused()).toBe(field("Username"))
    type(details, "Username", "annie")
    press(save)
    expect(focused()).toBe(field("Email"))
    type(details, "Email", "ann@example.com")
    press(save)
    expect(focused()).toBe(field("Password"))

    type(details, "Password", "correct horse")
    press(save)
    await expectBusyWithFocus(save)
    expect(save.textContent).toBe("Saving…")
    await pressAgainWhileBusy(save, held)
    held.release()
    await waitFor(async () => expect((await server.user("ann@example.com"))?.username).toBe("annie"))
    await waitFor(() => expect(save.hasAttribute("aria-disabled")).toBe(false))
    expect(held.count()).toBe(1)
  })

  it("'Update password': the same for its three fields, with the 1,024-character limit", async () => {
    const held = holding("/api/users/updatepassword")
    const { server } = await openProfile(held)
    const password = form("Update password")
    const update = within(password).getByRole("button", { name: "Update password" })
    const field = (label: string) => within(password).getByLabelText(label)
    expect(field("Current password").getAttribute("maxlength")).toBe("1024")
    // a new password pasted longer is kept whole and refused with the rule's message, never cut short
    for (const label of ["New password", "Confirm new password"]) expect(field(label).hasAttribute("maxlength")).toBe(false)

    press(update)
    expect(focused()).toBe(field("Current password"))
    type(password, "Current password", "correct horse")
    type(password, "New password", "x".repeat(1025))
    press(update)
    expect(within(password).getByText("Password is too long. Use at most 1,024 characters.")).toBeTruthy()
    expect(focused()).toBe(field("New password"))
    type(password, "New password", "new passphrase")
    press(update)
    expect(within(password).getByText("Passwords do not match")).toBeTruthy()
    expect(focused()).toBe(field("Confirm new password"))

    type(password, "Confirm new password", "new passphrase")
    press(update)
    await expectBusyWithFocus(update)
    await pressAgainWhileBusy(update, held)
    held.release()
    await waitFor(async () => expect(await server.passwordMatches("ann@example.com", "new passphrase")).toBe(true))
    await waitFor(() => expect(update.hasAttribute("aria-disabled")).toBe(false))
    expect(held.count()).toBe(1)
  })

  it("'Log out all devices' keeps the focus while it works, and a second press sends nothing more", async () => {
    const held = holding("/api/users/logoutall")
    await openProfile(held)
    const logOutAll = screen.getByRole("button", { name: "Log out all devices" })
    press(logOutAll)
    // asks first, on the same button: nothing has been sent yet
    expect(logOutAll.textContent).toBe("Confirm: log out all devices")
    expect(held.count()).toBe(0)
    press(logOutAll)
    await expectBusyWithFocus(logOutAll)
    expect(logOutAll.textContent).toBe("Logging out…")
    await pressAgainWhileBusy(logOutAll, held)
    held.release()
    expect(await screen.findByRole("heading", { name: "Sign in" })).toBeTruthy()
    expect(held.count()).toBe(1)
  })
})

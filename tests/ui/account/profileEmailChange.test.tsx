import { fireEvent, screen, waitFor, within } from "@testing-library/react"
import { afterEach, describe, expect, it } from "vitest"
import { renderApp, resetApp } from "../../support/renderApp.tsx"

const openProfile = async (options: Parameters<typeof renderApp>[0] = {}) => {
  const rendered = await renderApp({ signedIn: true, path: "/profile", ...options })
  await screen.findByRole("heading", { name: "Account settings" })
  return rendered
}
const details = () => screen.getByRole("heading", { name: "Update email or username" }).closest("section") as HTMLElement
const type = (label: string, value: string) => fireEvent.change(within(details()).getByLabelText(label), { target: { value } })
const notifications = () => screen.getByRole("list", { name: "Notifications" })
const waiting = () => [...details().querySelectorAll("p")].find((p) => p.textContent?.startsWith("Waiting for confirmation:"))
const emailField = () => within(details()).getByLabelText<HTMLInputElement>("Email")

describe("/profile, changing the email", () => {
  afterEach(resetApp)

  it("says why an address cannot be used, under 'Failed to update' and 'Please try again.'", async () => {
    await openProfile({ users: [{ email: "ann@example.com" }, { email: "bob@example.com" }] })
    type("Email", "bob@example.com")
    type("Password", "correct horse")
    fireEvent.click(within(details()).getByRole("button", { name: "Save changes" }))
    const alert = await within(notifications()).findByRole("alert")
    expect(alert.textContent).toBe("Failed to updatePlease try again.\nThat email address is already registered to another account.")
  })

  it("keeps the current address in the field while the new one waits for confirmation", async () => {
    await openProfile()
    type("Email", "ann.new@example.com")
    type("Password", "correct horse")
    fireEvent.click(within(details()).getByRole("button", { name: "Save changes" }))
    await within(notifications()).findByText("Please follow the verification instructions sent to ann.new@example.com")
    expect(emailField().value).toBe("ann@example.com")
    expect(waiting()?.textContent).toBe("Waiting for confirmation: ann.new@example.com")
  })

  it("hears of a waiting change from the server on a new page load, and cancels it with the password", async () => {
    const { server } = await openProfile({
      path: async (server) => {
        const token = await server.signIn("ann@example.com")
        await server.call("updateUsernameAndEmail", {
          token,
          body: { username: "ann", email: "ann.new@example.com", password: "correct horse" }
        })
        return "/profile"
      }
    })
    await waitFor(() => expect(waiting()?.textContent).toBe("Waiting for confirmation: ann.new@example.com"))
    expect(emailField().value).toBe("ann@example.com")
    // cancelling asks for the password first
    fireEvent.click(within(details()).getByRole("button", { name: "Cancel the change" }))
    expect(within(details()).getByText("Please enter your password.")).toBeTruthy()
    expect(document.activeElement).toBe(within(details()).getByLabelText("Password"))
    type("Password", "correct horse")
    fireEvent.click(within(details()).getByRole("button", { name: "Cancel the change" }))
    await within(notifications()).findByText("Your account keeps ann@example.com; the confirmation link no longer works.")
    await waitFor(() => expect(waiting()).toBeUndefined())
    const token = await server.signIn("ann@example.com")
    expect((await server.call("userInfo", { token, body: {} })).data).not.toHaveProperty("pendingEmail")
  })
})

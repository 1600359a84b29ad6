import { act, screen, within } from "@testing-library/react"
import { afterEach, describe, expect, it } from "vitest"
import { EMAIL_CHANGE_TOKEN_NOT_FOUND } from "../../../src/server/account/profileHandlers.ts"
import { click, expectHome, expectLoginPage, followMailedLink, settled, signIn, takenEvents, type } from "../../support/modelSteps.ts"
import { type Rendered, renderApp, resetApp } from "../../support/renderApp.tsx"
import { emailChangePaths } from "./emailChange.model.ts"

const EMAIL = "ann@example.com"
const CHANGED = "ann.new@example.com"
const PROFILE_CHANGE = "ann.other@example.com"

const submitDetails = async (email: string, password: string) => {
  await type("Email", email)
  await type("Password", password)
  await click("button", "Save changes")
}

const notification = async (title: string, message: string) => {
  const region = await screen.findByRole("list", { name: "Notifications" })
  const item = await within(region).findByText(message)
  expect(item.closest("li")?.textContent).toContain(title)
  return item.closest("li")
}

const expectConfirmed = async (email: string) => {
  expect(await screen.findByRole("heading", { name: "Email updated" })).toBeTruthy()
  expect(screen.getByText("Your email address has been updated.")).toBeTruthy()
  expect(screen.getByText(email)).toBeTruthy()
  expect(screen.getByRole("link", { name: "Go Home" }).getAttribute("href")).toBe("/")
}

describe("changing the email address", () => {
  afterEach(resetApp)

  for (const path of emailChangePaths()) {
    it(path.description, async () => {
      let app: Rendered | undefined
      const rendered = (): Rendered => {
        if (app === undefined) throw new Error("the app is not open")
        return app
      }
      await path.test({
        states: {
          closed: () => {},
          profile: async () => {
            expect(await screen.findByRole("heading", { name: "Update email or username" })).toBeTruthy()
            expect(screen.getByLabelText<HTMLInputElement>("Username").value).toBe("ann")
            expect(screen.getByLabelText<HTMLInputElement>("Email").value).toBe(EMAIL)
          },
          profileRefused: async () => {
            const item = await notification("Failed to update", "Incorrect password")
            expect(item?.querySelector("[role=alert]")).not.toBeNull()
          },
          pending: async () => {
            await notification("Success!", `Please follow the verification instructions sent to ${PROFILE_CHANGE}`)
            expect(screen.getByLabelText<HTMLInputElement>("Password").value).toBe("")
          },
          changedSignedIn: () => expectConfirmed(PROFILE_CHANGE),
          profileUpdated: async () => {
            expect(await screen.findByRole("heading", { name: "Update email or username" })).toBeTruthy()
            expect(screen.getByLabelText<HTMLInputElement>("Email").value).toBe(PROFILE_CHANGE)
          },
          changeRefused: async () => {
            expect(await screen.findByRole("heading", { name: "Email not changed" })).toBeTruthy()
            expect(screen.getByRole("alert").textContent).toContain(EMAIL_CHANGE_TOKEN_NOT_FOUND)
            expect(screen.getByRole("link", { name: "Go Home" })).toBeTruthy()
          },
          loginPage: expectLoginPage,
          changed: () => expectConfirmed(CHANGED),
          loginAfterChange: expectLoginPage,
          home: expectHome
        },
        events: {
          "profile.open": async () => {
            app = await renderApp({ signedIn: true, path: "/profile" })
          },
          "details.submitWrongPassword": () => submitDetails(EMAIL, "wrong password"),
          "details.submitNewEmail": () => submitDetails("Ann.Other@Example.com", "correct horse"),
          "mail.followLink": () => followMailedLink(rendered(), PROFILE_CHANGE),
          "profile.reopen": async () => {
            // the confirmation reloads the user info; a person takes longer than that to click on
            await settled(rendered())
            await act(() => rendered().app.router.navigate("/profile"))
          },
          "link.openUnknown": async () => {
            app = await renderApp({ path: "/confirm-email-change?token=change-unknown" })
          },
          "link.openValid": async () => {
            app = await renderApp({ path: (server) => server.emailChangeLink(EMAIL, CHANGED) })
          },
          "home.go": () => click("link", "Go Home"),
          "login.withNewEmail": () => signIn(CHANGED, "correct horse")
        }
      })
    })
  }

  it("covers every transition of the model", () => {
    expect(takenEvents(emailChangePaths())).toEqual([
      "details.submitNewEmail",
      "details.submitWrongPassword",
      "home.go",
      "link.openUnknown",
      "link.openValid",
      "login.withNewEmail",
      "mail.followLink",
      "profile.open",
      "profile.reopen"
    ])
  })
})

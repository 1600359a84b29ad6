import { act, screen, within } from "@testing-library/react"
import { afterEach, describe, expect, it } from "vitest"
import { createTestModel } from "xstate/graph"
import { CHANGE_NOT_FOUND_DETAIL } from "../../support/fakeAccounts.ts"
import { renderApp, resetApp } from "../../support/renderApp.tsx"
import { emailChangeModel } from "./emailChange.model.ts"
import { click, expectHome, expectLoginPage, followMailedLink, signIn, takenEvents, type, type Rendered } from "../../support/modelSteps.ts"

const EMAIL = "ann@example.com"
const CHANGED = "ann.new@example.com"
const PROFILE_CHANGE = "ann.other@example.com"
const backendOptions = { emailChangeTokens: { "change-known": { email: EMAIL, newEmail: CHANGED } } }

const model = createTestModel(emailChangeModel)

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

  for (const path of model.getSimplePaths()) {
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
            expect(item?.getAttribute("role")).toBe("alert")
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
            expect(screen.getByRole("alert").textContent).toContain(CHANGE_NOT_FOUND_DETAIL)
            expect(screen.getByRole("link", { name: "Go Home" })).toBeTruthy()
          },
          loginPage: expectLoginPage,
          changed: () => expectConfirmed(CHANGED),
          loginAfterChange: expectLoginPage,
          home: expectHome
        },
        events: {
          "profile.open": () => void (app = renderApp({ ...backendOptions, token: "t-1", path: "/profile" })),
          "details.submitWrongPassword": () => submitDetails(EMAIL, "wrong password"),
          "details.submitNewEmail": () => submitDetails("Ann.Other@Example.com", "correct horse"),
          "mail.followLink": () => followMailedLink(rendered(), PROFILE_CHANGE),
          "profile.reopen": async () => {
            await act(() => rendered().app.router.navigate("/profile"))
          },
          "link.openUnknown": () => void (app = renderApp({ ...backendOptions, path: "/confirm-email-change?token=change-unknown" })),
          "link.openValid": () => void (app = renderApp({ ...backendOptions, path: "/confirm-email-change?token=change-known" })),
          "home.go": () => click("link", "Go Home"),
          "login.withNewEmail": () => signIn(CHANGED, "correct horse")
        }
      })
    })
  }

  it("covers every transition of the model", () => {
    expect(takenEvents(model.getSimplePaths())).toEqual([
      "details.submitNewEmail", "details.submitWrongPassword", "home.go", "link.openUnknown", "link.openValid",
      "login.withNewEmail", "mail.followLink", "profile.open", "profile.reopen"
    ])
  })
})

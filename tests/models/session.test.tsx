import { fireEvent, screen, within } from "@testing-library/react"
import { afterEach, describe, expect, it } from "vitest"
import { createTestModel } from "xstate/graph"
import * as loginStyles from "../../src/ui/auth/LoginView.css.ts"
import { WRONG_PASSWORD_DETAIL } from "../ui/fakeBackend.ts"
import { renderApp, resetApp } from "../ui/renderApp.tsx"
import { sessionModel } from "./session.model.ts"

const signIn = async (password: string) => {
  fireEvent.change(await screen.findByLabelText("Email"), { target: { value: "Ann@Example.com" } })
  fireEvent.change(screen.getByLabelText("Password"), { target: { value: password } })
  fireEvent.click(screen.getByRole("button", { name: "Sign in" }))
}

const expectLoginPage = async () => {
  expect(await screen.findByRole("heading", { name: "Sign in" })).toBeTruthy()
  expect(screen.getByRole("button", { name: "Sign in" })).toBeTruthy()
  expect(screen.getByRole("link", { name: "Forgot password?" })).toBeTruthy()
  expect(screen.queryByRole("banner")).toBeNull()
  expect(window.location.pathname).toBe("/login")
}

const model = createTestModel(sessionModel)

describe("signing in and out", () => {
  afterEach(resetApp)

  for (const path of model.getSimplePaths()) {
    it(path.description, async () => {
      const { storage } = renderApp()
      await path.test({
        states: {
          loginPage: expectLoginPage,
          loginRefused: async () => {
            const alert = await screen.findByRole("alert")
            expect(alert.textContent).toBe(WRONG_PASSWORD_DETAIL)
            expect(alert.classList.contains(loginStyles.error)).toBe(true)
            expect(storage.getToken()).toBeNull()
          },
          home: async () => {
            const header = await screen.findByRole("banner")
            expect(within(header).getByRole("link", { name: "Home" }).getAttribute("aria-current")).toBe("page")
            expect(within(header).getByRole("button", { name: "Account" })).toBeTruthy()
            expect(await screen.findByRole("button", { name: "Sports One" })).toBeTruthy()
            expect(window.location.pathname).toBe("/")
            expect(storage.getToken()).not.toBeNull()
          },
          loggedOut: async () => {
            await expectLoginPage()
            expect(storage.getToken()).toBeNull()
          }
        },
        events: {
          "login.wrongPassword": () => signIn("wrong password"),
          "login.correctPassword": () => signIn("correct horse"),
          "session.logout": async () => {
            fireEvent.click(await screen.findByRole("button", { name: "Account" }))
            fireEvent.click(await screen.findByRole("button", { name: "Log out" }))
          }
        }
      })
    })
  }

  it("covers every transition of the model", () => {
    const taken = new Set(model.getSimplePaths().flatMap((path) => path.steps.map((step) => step.event.type)))
    expect([...taken].sort()).toEqual(["login.correctPassword", "login.wrongPassword", "session.logout", "xstate.init"])
  })
})

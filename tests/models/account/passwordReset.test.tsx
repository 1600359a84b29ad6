import { screen } from "@testing-library/react"
import { afterEach, describe, expect, it } from "vitest"
import { RESET_TOKEN_INVALID, RESET_TOKEN_USED } from "../../../src/server/account/passwordResetHandlers.ts"
import { click, expectHome, expectLoginPage, followMailedLink, signIn, takenEvents, type } from "../../support/modelSteps.ts"
import { type Rendered, renderApp, resetApp } from "../../support/renderApp.tsx"
import { passwordResetPaths } from "./passwordReset.model.ts"

const EMAIL = "ann@example.com"
const NEW_PASSWORD = "brand new passphrase"

const submit = async (password: string, confirmPassword = password) => {
  await type("New password", password)
  await type("Confirm new password", confirmPassword)
  await click("button", "Update password")
}

describe("resetting a forgotten password", () => {
  afterEach(resetApp)

  for (const path of passwordResetPaths()) {
    it(path.description, async () => {
      let app: Rendered | undefined
      const rendered = (): Rendered => {
        if (app === undefined) throw new Error("the app is not open")
        return app
      }
      await path.test({
        states: {
          closed: () => {},
          requested: async () => {
            expect(await screen.findByRole("heading", { name: "Check your email" })).toBeTruthy()
            expect(screen.getByText("If the email is registered, reset instructions will be sent.")).toBeTruthy()
            expect(rendered().calls.find((call) => call.path === "/api/users/create-password-reset-token")?.body).toEqual({ email: EMAIL })
          },
          linkRefused: async () => {
            expect(await screen.findByRole("heading", { name: "Password not reset" })).toBeTruthy()
            expect(screen.getByRole("alert").textContent).toContain(RESET_TOKEN_INVALID)
            expect(screen.getByRole("link", { name: "Request a new link" }).getAttribute("href")).toBe("/forgot-password")
          },
          form: async () => {
            expect(await screen.findByRole("heading", { name: "Reset your password" })).toBeTruthy()
            const email = screen.getByLabelText<HTMLInputElement>("Email")
            expect(email.value).toBe(EMAIL)
            expect(email.readOnly).toBe(true)
          },
          formErrors: async () => {
            expect(await screen.findByText("Password length too short")).toBeTruthy()
            expect(screen.getByText("Passwords do not match")).toBeTruthy()
          },
          resetRefused: async () => {
            expect(await screen.findByRole("heading", { name: "Password not reset" })).toBeTruthy()
            expect(screen.getByText(RESET_TOKEN_USED)).toBeTruthy()
          },
          complete: async () => {
            expect(await screen.findByRole("heading", { name: "Password has been updated" })).toBeTruthy()
            expect(screen.getByRole("link", { name: "Go to login page" })).toBeTruthy()
          },
          loginPage: expectLoginPage,
          home: expectHome
        },
        events: {
          "forgot.request": async () => {
            app = await renderApp({ path: "/forgot-password" })
            await type("Email", "Ann@Example.com")
            await click("button", "Send reset link")
          },
          "mail.followLink": () => followMailedLink(rendered(), EMAIL),
          "link.openUnknown": async () => {
            app = await renderApp({ path: "/password-reset-confirmation?token=reset-unknown" })
          },
          "link.openValid": async () => {
            app = await renderApp({ path: (server) => server.passwordResetLink(EMAIL) })
          },
          "form.submitMismatch": () => submit("short", "different"),
          "form.submitValid": () => submit(NEW_PASSWORD),
          "form.submitAfterUse": async () => {
            // the same link, used from another tab while this form was open
            const token = new URLSearchParams(window.location.search).get("token") ?? ""
            const answer = await rendered().server.call("resetPassword", { body: { token, newPassword: "another tab's password" } })
            expect(answer).toMatchObject({ success: true })
            await submit(NEW_PASSWORD)
          },
          "login.open": () => click("link", "Go to login page"),
          "login.withNewPassword": () => signIn("Ann@Example.com", NEW_PASSWORD)
        }
      })
    })
  }

  it("covers every transition of the model", () => {
    expect(takenEvents(passwordResetPaths())).toEqual([
      "forgot.request",
      "form.submitAfterUse",
      "form.submitMismatch",
      "form.submitValid",
      "link.openUnknown",
      "link.openValid",
      "login.open",
      "login.withNewPassword",
      "mail.followLink"
    ])
  })
})

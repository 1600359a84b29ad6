import { screen } from "@testing-library/react"
import { afterEach, describe, expect, it } from "vitest"
import { EMAIL_TAKEN_MESSAGE } from "../../../src/machines/account/registrationMachine.ts"
import { INVITE_UNKNOWN } from "../../../src/server/invites/inviteCodes.ts"
import { click, expectHome, expectLoginPage, followMailedLink, signIn, takenEvents, type } from "../../support/modelSteps.ts"
import { type Rendered, renderApp, resetApp } from "../../support/renderApp.tsx"
import { registrationPaths } from "./registration.model.ts"

const NEW_EMAIL = "new.member@example.com"
const NEW_PASSWORD = "fresh passphrase"

const fill = async (email: string, password: string, confirmPassword = password) => {
  await type("Email", email)
  await type("Password", password)
  await type("Confirm password", confirmPassword)
  await click("button", "Create account")
}

describe("registering through an invite link", () => {
  afterEach(resetApp)

  for (const path of registrationPaths()) {
    it(path.description, async () => {
      let app: Rendered | undefined
      const rendered = (): Rendered => {
        if (app === undefined) throw new Error("the app is not open")
        return app
      }
      await path.test({
        states: {
          closed: () => {},
          loginPage: expectLoginPage,
          inviteRefused: async () => {
            expect(await screen.findByRole("heading", { name: "Oops!" })).toBeTruthy()
            expect(screen.getByText(INVITE_UNKNOWN)).toBeTruthy()
            expect(screen.getByRole("alert").textContent).toContain(INVITE_UNKNOWN)
            expect(screen.queryByRole("link", { name: "Go to login page" })).toBeNull()
            expect(screen.queryByLabelText("Email")).toBeNull()
          },
          form: async () => {
            expect(await screen.findByRole("heading", { name: "Create your account" })).toBeTruthy()
            for (const label of ["Email", "Password", "Confirm password"]) expect(screen.getByLabelText(label)).toBeTruthy()
            // the invite is checked before anything else is asked of the server
            const { calls, server } = rendered()
            const accountCalls = calls.filter((call) => call.path.startsWith("/api/invitations") || call.path === "/api/users/register")
            expect(accountCalls[0]?.path).toBe(`/api/invitations/invitation/${server.users[0]?.invite_token}`)
          },
          formErrors: async () => {
            expect(await screen.findByText("Enter a valid email address.")).toBeTruthy()
            expect(screen.getByText("Password length too short")).toBeTruthy()
            expect(screen.getByText("Passwords do not match")).toBeTruthy()
            expect(screen.getByLabelText("Email").getAttribute("aria-invalid")).toBe("true")
          },
          emailTaken: async () => {
            expect(await screen.findByRole("heading", { name: "Oops!" })).toBeTruthy()
            expect(screen.getByText(EMAIL_TAKEN_MESSAGE)).toBeTruthy()
            expect(screen.getByRole("link", { name: "Go to login page" })).toBeTruthy()
          },
          complete: async () => {
            expect(await screen.findByRole("heading", { name: "Success! Account created" })).toBeTruthy()
            expect(screen.getByText(NEW_EMAIL)).toBeTruthy()
            expect(screen.getByText("Click the link in it to finish creating your account.")).toBeTruthy()
            expect((await rendered().server.user(NEW_EMAIL))?.username).toBe("new.member")
          },
          verified: async () => {
            expect(await screen.findByRole("heading", { name: "Account Verified" })).toBeTruthy()
            expect(screen.getByRole("link", { name: "Sign in" }).getAttribute("href")).toBe("/login")
          },
          home: expectHome
        },
        events: {
          "invite.openMissing": async () => {
            app = await renderApp({ path: "/register/" })
          },
          "invite.openUnknown": async () => {
            app = await renderApp({ path: "/register/?invite=withdrawn-invite" })
          },
          "invite.openValid": async () => {
            app = await renderApp({ path: ({ users }) => `/register/?invite=${users[0]?.invite_token}` })
          },
          "form.submitInvalid": () => fill("not-an-email", "short", "different"),
          "form.submitTakenEmail": () => fill("Ann@Example.com", NEW_PASSWORD),
          "form.submitNewEmail": () => fill("New.Member@Example.com", NEW_PASSWORD),
          "login.open": () => click("link", "Go to login page"),
          "mail.followLink": () => followMailedLink(rendered(), NEW_EMAIL),
          "login.signIn": async () => {
            await click("link", "Sign in")
            await signIn(NEW_EMAIL, NEW_PASSWORD)
          }
        }
      })
    })
  }

  it("covers every transition of the model", () => {
    expect(takenEvents(registrationPaths())).toEqual([
      "form.submitInvalid",
      "form.submitNewEmail",
      "form.submitTakenEmail",
      "invite.openMissing",
      "invite.openUnknown",
      "invite.openValid",
      "login.open",
      "login.signIn",
      "mail.followLink"
    ])
  })
})

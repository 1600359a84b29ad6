import { fireEvent, screen, waitFor, within } from "@testing-library/react"
import { afterEach, beforeEach, describe, expect, it, type MockInstance, vi } from "vitest"
import { LOGIN_MISMATCH } from "../../../src/server/account/authHandlers.ts"
import * as formStyles from "../../../src/ui/account/AccountForm.css.ts"
import { takenEvents } from "../../support/modelSteps.ts"
import { type Rendered, renderApp, resetApp } from "../../support/renderApp.tsx"
import { sessionModel, sessionPaths } from "./session.model.ts"

const REFUSAL = "the server kept the session"

const signIn = async (password: string) => {
  fireEvent.change(await screen.findByLabelText("Email"), { target: { value: "Ann@Example.com" } })
  fireEvent.change(screen.getByLabelText("Password"), { target: { value: password } })
  fireEvent.click(screen.getByRole("button", { name: "Sign in" }))
}

const logOut = async () => {
  fireEvent.click(await screen.findByRole("button", { name: "Account" }))
  fireEvent.click(await screen.findByRole("button", { name: "Log out" }))
}

const expectLoginPage = async () => {
  expect(await screen.findByRole("heading", { name: "Sign in" })).toBeTruthy()
  expect(screen.getByRole("button", { name: "Sign in" })).toBeTruthy()
  expect(screen.getByRole("link", { name: "Forgot password?" })).toBeTruthy()
  // the public pages' banner holds only the brand: none of the signed-in area's header
  expect(screen.queryByRole("button", { name: "Account" })).toBeNull()
  expect(screen.queryByRole("link", { name: "Stream Schedule" })).toBeNull()
  expect(window.location.pathname).toBe("/login")
}

const expectHome = async () => {
  // the signed-in area's banner, once it has replaced the public pages' one
  const account = await screen.findByRole("button", { name: "Account" })
  const header = account.closest("header")
  if (header === null) throw new Error("the Account menu is outside the banner")
  expect(within(header).getByRole("link", { name: "Home" }).getAttribute("aria-current")).toBe("page")
  expect(await screen.findByRole("button", { name: "Sports One" })).toBeTruthy()
  expect(window.location.pathname).toBe("/")
}

const paths = sessionPaths()

describe("signing in and out", () => {
  let app: Rendered | undefined
  let refuseNextLogout = false
  let consoleError: MockInstance<typeof console.error>

  /** The real app over the real server, whose next logout can be refused on demand. */
  const open = async (options: { signedIn?: boolean; path?: string } = {}) => {
    app = await renderApp({
      ...options,
      wrapFetch: (fetch) => async (input, init) => {
        if (refuseNextLogout && String(input).endsWith("/api/users/logout")) {
          refuseNextLogout = false
          return new Response(JSON.stringify({ success: false, detail: REFUSAL }), { headers: { "content-type": "application/json" } })
        }
        return fetch(input, init)
      }
    })
  }
  const storedToken = () => app?.storage.getToken() ?? null

  beforeEach(() => {
    consoleError = vi.spyOn(console, "error").mockImplementation(() => undefined)
  })
  afterEach(async () => {
    await resetApp()
    app = undefined
    refuseNextLogout = false
    consoleError.mockRestore()
  })

  for (const path of paths) {
    it(path.description, async () => {
      await path.test({
        states: {
          closed: () => expect(app).toBeUndefined(),
          loginPage: expectLoginPage,
          loginRefused: async () => {
            const alert = await screen.findByRole("alert")
            expect(alert.textContent).toBe(LOGIN_MISMATCH)
            expect(alert.classList.contains(formStyles.alert)).toBe(true)
            expect(storedToken()).toBeNull()
          },
          home: async () => {
            await expectHome()
            expect(storedToken()).not.toBeNull()
          },
          stillSignedIn: async () => {
            await waitFor(() => expect(consoleError).toHaveBeenCalledWith(`Logout failed: ${REFUSAL}`))
            await expectHome()
            expect(storedToken()).not.toBeNull()
            expect(screen.queryByRole("alert")).toBeNull()
            expect(screen.queryByRole("dialog")).toBeNull()
          },
          loggedOut: async () => {
            await expectLoginPage()
            expect(storedToken()).toBeNull()
          },
          sessionEnded: async () => {
            await expectLoginPage()
            expect(storedToken()).toBeNull()
          },
          signedInAgain: async () => {
            await expectHome()
            expect(storedToken()).not.toBeNull()
          }
        },
        events: {
          "app.open": () => open(),
          "app.openWithStoredToken": () => open({ signedIn: true }),
          "app.openLoginWithStoredToken": () => open({ signedIn: true, path: "/login" }),
          "login.wrongPassword": () => signIn("wrong password"),
          "login.correctPassword": () => signIn("correct horse"),
          "session.logout": logOut,
          "session.logoutRefused": async () => {
            refuseNextLogout = true
            await logOut()
          },
          // The server forgets the session (it ended elsewhere); the next page that calls the API
          // gets a 403.
          "session.forbidden": async () => {
            await app?.server.endSessionsElsewhere("ann@example.com")
            const header = await screen.findByRole("banner")
            fireEvent.click(within(header).getByRole("link", { name: "Invites" }))
            await screen.findByRole("heading", { name: "Invites" })
            fireEvent.click(within(header).getByRole("link", { name: "Home" }))
          }
        }
      })
    })
  }

  it("covers every transition of the model", () => {
    expect(takenEvents(paths)).toEqual([
      "app.open",
      "app.openLoginWithStoredToken",
      "app.openWithStoredToken",
      "login.correctPassword",
      "login.wrongPassword",
      "session.forbidden",
      "session.logout",
      "session.logoutRefused"
    ])
    const reached = new Set(paths.flatMap((path) => [...path.steps.map((step) => step.state.value), path.state.value]))
    expect([...reached].sort()).toEqual(Object.keys(sessionModel.config.states ?? {}).sort())
  })
})

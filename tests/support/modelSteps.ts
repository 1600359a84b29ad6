import { act, fireEvent, screen, waitFor } from "@testing-library/react"
import { expect } from "vitest"
import type { Rendered } from "./renderApp.tsx"

/** Types into the field with this exact label. */
export const type = async (label: string, value: string) => fireEvent.change(await screen.findByLabelText(label), { target: { value } })

export const click = async (role: "button" | "link", name: string) => fireEvent.click(await screen.findByRole(role, { name }))

export const signIn = async (email: string, password: string) => {
  await type("Email", email)
  await type("Password", password)
  await click("button", "Sign in")
}

/** Opens the link of the newest mail to `to` in the same tab, as following it from a mail client would. */
export const followMailedLink = async ({ server, app }: Rendered, to: string) => {
  const link = await server.mailedLink(to)
  await act(() => app.router.navigate(link))
}

/** Waits until the app has heard every answer it asked for, as a person would before the next step. */
export const settled = ({ inFlight }: Rendered) => waitFor(() => expect(inFlight()).toBe(0))

export const expectLoginPage = async () => {
  expect(await screen.findByRole("heading", { name: "Sign in" })).toBeTruthy()
  expect(window.location.pathname).toBe("/login")
}

export const expectHome = async () => {
  expect(await screen.findByRole("banner")).toBeTruthy()
  expect(await screen.findByRole("list", { name: "Streams" })).toBeTruthy()
  expect(window.location.pathname).toBe("/")
}

/** The model's events, as every generated path took them. */
export const takenEvents = (paths: ReadonlyArray<{ readonly steps: ReadonlyArray<{ readonly event: { readonly type: string } }> }>) =>
  [...new Set(paths.flatMap((path) => path.steps.map((step) => step.event.type)))].filter((type) => type !== "xstate.init").sort()

import { act, fireEvent, waitFor } from "@testing-library/react"
import { expect } from "vitest"

/** Holds every call to `path` until released, counting them: the page can be looked at while its request is out. */
export const holding = (path: string) => {
  let open: () => void = () => {}
  const gate = new Promise<void>((resolve) => {
    open = resolve
  })
  let count = 0
  const wrapFetch =
    (fetch: typeof globalThis.fetch): typeof globalThis.fetch =>
    async (input, init) => {
      if (new URL(String(input), "http://localhost").pathname === path) {
        count += 1
        await gate
      }
      return fetch(input, init)
    }
  return { wrapFetch, release: () => open(), count: () => count }
}

/** A keyboard user's press: the focus is on the button as it submits. */
export const press = (button: HTMLElement): void => {
  button.focus()
  fireEvent.click(button)
}

/** The busy button says it is unavailable without being disabled, so the focus stays on it. */
export const expectBusyWithFocus = async (button: HTMLElement): Promise<void> => {
  await waitFor(() => expect(button.getAttribute("aria-disabled")).toBe("true"))
  expect(button.hasAttribute("disabled")).toBe(false)
  expect(document.activeElement).toBe(button)
}

/** Presses the busy button again; nothing more goes out, and the focus stays. */
export const pressAgainWhileBusy = async (button: HTMLElement, held: ReturnType<typeof holding>): Promise<void> => {
  await waitFor(() => expect(held.count()).toBe(1))
  press(button)
  await new Promise((resolve) => setTimeout(resolve, 20))
  expect(held.count()).toBe(1)
  expect(document.activeElement).toBe(button)
}

/**
 * Lets the page's effects run: a form's machine starts in one, after the form is on screen, and
 * takes the events sent before it only then. A person cannot press that fast; a test can.
 */
export const settled = (): Promise<void> => act(async () => {})

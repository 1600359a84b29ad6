import { type ReactElement, type ReactNode, useEffect } from "react"
import { createRoot, hydrateRoot } from "react-dom/client"
import { waitFor } from "xstate"
import { loadInspector } from "../adapters/devtools/inspector.ts"
import { selectBootError, selectIsBooting, selectMaintenanceNotice, selectSettings } from "../machines/shell/bootMachine.ts"
import { type App, type AppDeps, createApp } from "./createApp.tsx"

/** Runs once the tree below has been put on the page (rendered, or hydrated over the prerendered page). */
const Mounted = ({ onMounted, children }: { readonly onMounted?: (() => void) | undefined; readonly children: ReactNode }) => {
  useEffect(() => onMounted?.(), [onMounted])
  return children
}

/** The app's tree as the page gets it: the build prerenders this very tree (scripts/prerenderPages.tsx). */
export const appTree = (element: ReactElement, onMounted?: () => void): ReactElement => <Mounted onMounted={onMounted}>{element}</Mounted>

/**
 * Everything React: loaded after a player page's first frame, at once on any other page.
 * `releaseSubmits` stops holding a prerendered page's form submits back (main.tsx) and tells the
 * last one held: once the page is the app's, that form is sent again.
 */
export const mountApp = async (root: HTMLElement, deps: AppDeps, releaseSubmits?: () => SubmitEvent | undefined): Promise<void> => {
  const inspect = await loadInspector(window.location.search)
  const app = createApp({ ...deps, ...(inspect === undefined ? {} : { inspect }) })
  const prerendered = root.dataset.prerendered
  if (prerendered !== undefined && (await rendersAsPrerendered(app, deps, prerendered))) {
    hydrateRoot(
      root,
      appTree(app.element, () => {
        keepTyped(root)
        const held = releaseSubmits?.()
        if (held?.target instanceof HTMLFormElement && held.target.isConnected) held.target.requestSubmit(submitterOf(held))
      })
    )
    return
  }
  releaseSubmits?.()
  const typed = prerendered === undefined ? new Map<string, string>() : typedFields(root)
  createRoot(root).render(appTree(app.element))
  if (typed.size > 0) restoreTyped(root, typed)
}

/**
 * The build prerendered the page as a visitor without a session sees it while the site runs under
 * the site name it was built with (`siteName`). With a session to check, the site in maintenance
 * or out of reach, or named otherwise by its operator, the app renders its page from scratch.
 */
const rendersAsPrerendered = async (app: App, deps: AppDeps, siteName: string): Promise<boolean> => {
  if (deps.storage.getToken() !== null) return false
  const booted = await waitFor(app.boot, (state) => !selectIsBooting(state))
  await app.routed
  return selectMaintenanceNotice(booted) === null && selectBootError(booted) === null && selectSettings(booted).siteName === siteName
}

/** The button that sent a held form, while it is still one of the form's. */
const submitterOf = (event: SubmitEvent): HTMLElement | null => {
  const { submitter, target } = event
  return submitter?.isConnected === true && target instanceof HTMLFormElement && submitter.closest("form") === target ? submitter : null
}

type TextField = HTMLInputElement | HTMLTextAreaElement

const nativeValueSetter = (field: TextField) => Object.getOwnPropertyDescriptor(Object.getPrototypeOf(field), "value")?.set

/**
 * Hydration keeps what a visitor typed before the script took over on the page but not in the form's state, which starts
 * empty and would clear the field at its next render. Each such field reports its text as if it
 * had just been typed: React tracks an input's last known value, so the field is first set empty
 * through React's own setter and then given its text behind React's back, which React sees as a
 * change and hands to the field's onChange.
 */
const keepTyped = (root: HTMLElement): void => {
  for (const field of root.querySelectorAll<TextField>("input, textarea")) {
    // hydration leaves the page's text in the field and the state's in its default value
    const { value } = field
    const setNative = nativeValueSetter(field)
    if (value === field.defaultValue || setNative === undefined) continue
    const { selectionStart, selectionEnd } = field
    field.value = ""
    setNative.call(field, value)
    field.dispatchEvent(new Event("input", { bubbles: true }))
    // an email field has no selection to give back (its selectionStart is null)
    if (document.activeElement === field && selectionStart !== null) field.setSelectionRange(selectionStart, selectionEnd)
  }
}

/** What a visitor typed into a prerendered page's fields, by field id, before the app drew the page anew. */
const typedFields = (root: HTMLElement): Map<string, string> => {
  const typed = new Map<string, string>()
  for (const field of root.querySelectorAll<TextField>("input[id], textarea[id]"))
    if (field.value !== field.defaultValue) typed.set(field.id, field.value)
  return typed
}

// how long a page drawn anew may take to show the fields typed into before it
const RESTORE_WITHIN_MS = 10_000
const AFTER_EFFECTS_MS = 30

/**
 * A page drawn from scratch (the site renamed, in maintenance, a session stored) replaces the
 * prerendered fields: each of the same id that appears empty gets what was typed, as if typed now.
 */
const restoreTyped = (root: HTMLElement, typed: Map<string, string>): void => {
  const apply = (): void => {
    for (const [id, value] of typed) {
      const field = document.getElementById(id)
      if (!(field instanceof HTMLInputElement || field instanceof HTMLTextAreaElement) || !root.contains(field)) continue
      typed.delete(id)
      const setNative = nativeValueSetter(field)
      if (field.value !== "" || setNative === undefined) continue
      setNative.call(field, value)
      field.dispatchEvent(new Event("input", { bubbles: true }))
    }
    if (typed.size === 0) observer.disconnect()
  }
  // after the commit's effects: the form's machine takes what the field reports only once it runs
  const observer = new MutationObserver(() => setTimeout(apply, AFTER_EFFECTS_MS))
  observer.observe(root, { childList: true, subtree: true })
  setTimeout(() => observer.disconnect(), RESTORE_WITHIN_MS)
}

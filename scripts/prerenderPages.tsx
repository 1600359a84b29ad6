/**
 * The public pages rendered to HTML with the app's own views, at build time (vite.config.ts builds
 * this file for Node and calls `prerenderPages`). Each page is what the app itself renders first
 * for a visitor without a session once the site is known to be running: mountApp.tsx hydrates it.
 */
import { renderToString } from "react-dom/server"
import { createMemoryRouter } from "react-router-dom"
import { waitFor } from "xstate"
import { createStorage, memoryStore } from "../src/adapters/storage/storage.ts"
import { createApp } from "../src/app/createApp.tsx"
import { appTree } from "../src/app/mountApp.tsx"
import { selectIsBooting, selectSettings } from "../src/machines/shell/bootMachine.ts"

/** A public page served prerendered; the server reads the list from the build (prerendered/pages.json). */
export interface PrerenderedPage {
  /** the route, without a trailing slash */
  readonly path: string
  /** the query parameter the page needs: without it the page goes elsewhere, and is not prerendered */
  readonly needs?: string
  /** the address it is rendered at, with a stand-in for the parameter it needs */
  readonly sample: string
  /** its file under prerendered/ */
  readonly file: string
  /** the build manifest's names of the page's own chunks (its view, its feature's machines), for their stylesheets */
  readonly chunks: ReadonlyArray<string>
}

const accountPage = (view: string): ReadonlyArray<string> => [`src/ui/account/${view}.tsx`, "src/app/account.ts"]

export const PRERENDERED_PAGES: ReadonlyArray<PrerenderedPage> = [
  // sign-in is in the app's own chunk
  { path: "/login", sample: "/login", file: "login.html", chunks: [] },
  { path: "/register", needs: "invite", sample: "/register?invite=invite", file: "register.html", chunks: accountPage("RegisterView") },
  { path: "/verify", needs: "token", sample: "/verify?token=token", file: "verify.html", chunks: accountPage("VerifyEmailView") },
  { path: "/forgot-password", sample: "/forgot-password", file: "forgot-password.html", chunks: accountPage("ForgotPasswordView") },
  {
    path: "/password-reset-confirmation",
    needs: "token",
    sample: "/password-reset-confirmation?token=token",
    file: "password-reset-confirmation.html",
    chunks: accountPage("PasswordResetView")
  },
  {
    path: "/confirm-email-change",
    needs: "token",
    sample: "/confirm-email-change?token=token",
    file: "confirm-email-change.html",
    chunks: accountPage("ConfirmEmailChangeView")
  }
]

export interface RenderedPage {
  readonly page: PrerenderedPage
  /** the page's markup, for inside <div id="root"> */
  readonly html: string
  /** the tab's title, as the page sets it once the app runs */
  readonly title: string
  /** the site's name on the page: the default, an operator may name the site otherwise */
  readonly siteName: string
}

const json = (body: unknown, status = 200): Response =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } })

/**
 * The server as a page's first render knows it: running, not in maintenance. Site settings are
 * refused, so the views show the defaults the app starts with; a page's own calls are made only
 * once it is mounted, never here.
 */
const buildTimeFetch: typeof globalThis.fetch = async (input) => {
  const url = new URL(input instanceof Request ? input.url : String(input), "http://prerender")
  if (url.pathname === "/api/maintenance") return json({ maintenanceMode: false, title: "", firstRowText: "", secondRowText: "" })
  return json({ success: false, status: 404, detail: "Not found" }, 404)
}

const TITLE = /<title>([^<]*)<\/title>/

async function renderPage(page: PrerenderedPage): Promise<RenderedPage> {
  const app = createApp({
    fetch: buildTimeFetch,
    storage: createStorage(memoryStore()),
    isMobile: () => false,
    createRouter: (routes) => createMemoryRouter(routes, { initialEntries: [page.sample] })
  })
  try {
    await waitFor(app.boot, (state) => !selectIsBooting(state))
    await app.routed
    const rendered = renderToString(appTree(app.element))
    // React puts the page's <title> first; the page's <head> takes it instead
    const title = TITLE.exec(rendered)?.[1] ?? ""
    return { page, html: rendered.replace(TITLE, ""), title, siteName: selectSettings(app.boot.getSnapshot()).siteName }
  } finally {
    app.dispose()
  }
}

export const prerenderPages = async (): Promise<Array<RenderedPage>> => {
  const pages: Array<RenderedPage> = []
  for (const page of PRERENDERED_PAGES) pages.push(await renderPage(page))
  return pages
}

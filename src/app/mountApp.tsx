import { createRoot } from "react-dom/client"
import { loadInspector } from "../adapters/devtools/inspector.ts"
import { type AppDeps, createApp } from "./createApp.tsx"

/** Everything React: loaded after a player page's first frame, at once on any other page. */
export const mountApp = async (root: HTMLElement, deps: AppDeps): Promise<void> => {
  const inspect = await loadInspector(window.location.search)
  const app = createApp({ ...deps, ...(inspect === undefined ? {} : { inspect }) })
  createRoot(root).render(app.element)
}

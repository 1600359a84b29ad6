import { createRoot } from "react-dom/client"
import { createApp, type AppDeps } from "./createApp.tsx"

/** Everything React: loaded after a player page's first frame, at once on any other page. */
export const mountApp = (root: HTMLElement, deps: AppDeps): void => {
  const app = createApp(deps)
  createRoot(root).render(app.element)
}

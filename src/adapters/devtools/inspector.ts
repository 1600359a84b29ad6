import type { InspectionEvent, Observer } from "xstate"

/** What every actor of the app is created with while inspected. */
export type Inspect = Observer<InspectionEvent>

/**
 * The Stately inspector, asked for with `?inspect` under `npm run dev`: it opens the visualizer in
 * a tab of its own and shows every running machine's states and events there. Builds leave it
 * out entirely: `import.meta.env.DEV` is false in them, so the import is dropped.
 */
export const loadInspector = async (search: string): Promise<Inspect | undefined> => {
  if (!import.meta.env.DEV || !new URLSearchParams(search).has("inspect")) return undefined
  const { createBrowserInspector } = await import("@statelyai/inspect")
  return createBrowserInspector().inspect
}

import { createRoot } from "react-dom/client"
import { createStorage } from "../adapters/storage.ts"
import { createApp } from "./createApp.tsx"

const root = document.getElementById("root")
if (root === null) throw new Error("index.html must contain <div id=\"root\">")

const app = createApp({ fetch: globalThis.fetch.bind(globalThis), storage: createStorage() })
createRoot(root).render(app.element)

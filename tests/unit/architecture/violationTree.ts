import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"

// Stand-ins for the npm packages the rules name: resolvable, and nothing to parse.
const PACKAGES = ["effect", "xstate", "react", "react-dom", "hls.js", "lodash-es", "@vanilla-extract/css"]

/** A small src where each layer rule is broken once, next to the imports the same rule allows. */
const FILES: Readonly<Record<string, string>> = {
  "src/domain/Thing.ts": `import { Schema } from "effect"
export type Thing = { readonly id: string }
export const thing = Schema`,
  "src/domain/Bad.ts": `import { shellMachine } from "../machines/shell/shellMachine.ts"
import { readFileSync } from "node:fs"
import { chunk } from "lodash-es"
export const bad = [shellMachine, readFileSync, chunk]`,
  "src/domain/Missing.ts": `import { gone } from "./Gone.ts"
export const missing = gone`,
  "src/domain/Barrel.ts": `export { thing } from "./Thing.ts"`,
  "src/domain/TypeBarrel.ts": `export type { Thing } from "./Thing.ts"`,
  "src/domain/StarBarrel.ts": `export * from "./Thing.ts"`,
  "src/domain/Shadowed.ts": `import { thing } from "./Thing.ts"
export { thing } from "./Thing.ts"
export const again = thing`,

  "src/machines/shell/shellMachine.ts": `import { createMachine } from "xstate"
import { thing } from "../../domain/Thing.ts"
export const shellMachine = createMachine(thing)`,
  "src/machines/shell/badMachine.ts": `import { http } from "../../adapters/http/http.ts"
export const badMachine = http`,

  "src/ui/shell/View.css.ts": `import { style } from "@vanilla-extract/css"
export const card = style({})`,
  "src/ui/shell/View.tsx": `import { useState } from "react"
import { shellMachine } from "../../machines/shell/shellMachine.ts"
import { card } from "./View.css.ts"
export const View = () => <div className={card}>{String(useState(shellMachine))}</div>`,
  "src/ui/shell/BadView.tsx": `import type { Http } from "../../adapters/http/http.ts"
export const BadView = (props: { readonly http: Http }) => <p>{String(props.http)}</p>`,

  "src/adapters/http/http.ts": `import Hls from "hls.js"
import type { Thing } from "../../domain/Thing.ts"
export type Http = (thing: Thing) => void
export const http = Hls`,
  "src/adapters/http/badAdapter.ts": `import { shellMachine } from "../../machines/shell/shellMachine.ts"
export const badAdapter = shellMachine`,

  "src/app/main.tsx": `import type { ReactNode } from "react"
import type { Shape } from "./shapes.ts"
import { startWarm } from "./warmStart.ts"
import { http } from "../adapters/http/http.ts"
export const entry = (node: ReactNode, shape: Shape) => [node, shape, startWarm, http]
void import("./mountApp.tsx")`,
  "src/app/warmStart.ts": `import { useState } from "react"
export const startWarm = useState`,
  "src/app/shapes.ts": `import { Schema } from "effect"
export type Shape = typeof Schema`,
  "src/app/mountApp.tsx": `import { createRoot } from "react-dom"
import { View } from "../ui/shell/View.tsx"
export const mountApp = () => createRoot(<View />)`,
  "src/app/badWiring.ts": `import { port } from "../server/config.ts"
export const badWiring = port`,

  "src/server/config.ts": `export const port = 8080`,
  "src/server/badServer.ts": `import { View } from "../ui/shell/View.tsx"
export const badServer = View`,
  "src/server/http/errors.ts": `export const notFound = 404`,
  "src/server/http/badHttp.ts": `import { accountFeature } from "../account/accountFeature.ts"
export const badHttp = accountFeature`,
  "src/server/db/database.ts": `export const database = {}`,
  "src/server/cli/command.ts": `export const command = "help"`,
  "src/server/cli/admin.ts": `import { streamsFeature } from "../streams/streamsFeature.ts"
import { command } from "./command.ts"
export const admin = [streamsFeature, command]`,
  "src/server/streams/streamsRepo.ts": `import { database } from "../db/database.ts"
export const streamsRepo = database`,
  "src/server/streams/streamsFeature.ts": `import { readFileSync } from "node:fs"
import type { Thing } from "../../domain/Thing.ts"
import { notFound } from "../http/errors.ts"
import { command } from "../cli/command.ts"
import { port } from "../config.ts"
import { streamsRepo } from "./streamsRepo.ts"
export const streamsFeature = (thing: Thing) => [readFileSync, thing, notFound, command, port, streamsRepo]`,
  "src/server/account/accountFeature.ts": `import { streamsFeature } from "../streams/streamsFeature.ts"
export const accountFeature = streamsFeature`,
  "src/server/account/accountHandlers.ts": `import { streamsRepo } from "../streams/streamsRepo.ts"
export const accountHandlers = streamsRepo`,
  "src/server/app.ts": `import { accountFeature } from "./account/accountFeature.ts"
import { streamsFeature } from "./streams/streamsFeature.ts"
import { notFound } from "./http/errors.ts"
export const app = [accountFeature, streamsFeature, notFound]`,
  "src/server/main.ts": `import { streamsRepo } from "./streams/streamsRepo.ts"
export const main = streamsRepo`
}

/** What the layer rules report on the tree, and nothing else: every other import in it is allowed. */
export const LAYER_FINDINGS = [
  "adapters-import-domain-and-packages: src/adapters/http/badAdapter.ts -> src/machines/shell/shellMachine.ts",
  "app-imports-browser-layers: src/app/badWiring.ts -> src/server/config.ts",
  "domain-imports-domain-and-effect: src/domain/Bad.ts -> fs",
  "domain-imports-domain-and-effect: src/domain/Bad.ts -> node_modules/lodash-es/index.js",
  "domain-imports-domain-and-effect: src/domain/Bad.ts -> src/machines/shell/shellMachine.ts",
  "machines-import-domain-and-xstate: src/machines/shell/badMachine.ts -> src/adapters/http/http.ts",
  "no-re-exports: src/domain/Barrel.ts -> src/domain/Thing.ts",
  "no-re-exports: src/domain/Shadowed.ts -> src/domain/Thing.ts",
  "no-re-exports: src/domain/StarBarrel.ts -> src/domain/Thing.ts",
  "no-re-exports: src/domain/TypeBarrel.ts -> src/domain/Thing.ts",
  "not-to-unresolvable: src/domain/Missing.ts -> ./Gone.ts",
  "server-feature-imports-other-features-by-feature-module: src/server/account/accountHandlers.ts -> src/server/streams/streamsRepo.ts",
  "server-imports-domain-and-server: src/server/badServer.ts -> src/ui/shell/View.tsx",
  "server-roots-import-features-by-feature-module: src/server/main.ts -> src/server/streams/streamsRepo.ts",
  "server-shared-imports-no-feature: src/server/http/badHttp.ts -> src/server/account/accountFeature.ts",
  "ui-imports-domain-machines-and-view-libraries: src/ui/shell/BadView.tsx -> src/adapters/http/http.ts"
]

/** main.tsx reaches react at run time through warmStart.ts; its type-only and dynamic imports do not count. */
export const ENTRY_FINDINGS = ["entry-loads-no-framework: src/app/warmStart.ts -> node_modules/react/index.js"]

/** Writes the tree into a fresh temporary directory and returns that directory. */
export const writeViolationTree = (): string => {
  const root = mkdtempSync(join(tmpdir(), "boundaries-"))
  const write = (path: string, text: string): void => {
    mkdirSync(dirname(join(root, path)), { recursive: true })
    writeFileSync(join(root, path), text)
  }
  for (const [path, text] of Object.entries(FILES)) write(path, `${text}\n`)
  for (const name of PACKAGES) {
    write(`node_modules/${name}/package.json`, JSON.stringify({ name, main: "index.js" }))
    write(`node_modules/${name}/index.js`, "export {}\n")
  }
  return root
}

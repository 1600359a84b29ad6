// The layer rules of DESIGN.md ("Layout: one feature, one folder, the same name in every layer").
// tests/unit/architecture/boundaries.test.ts runs them over src and over a tree that breaks each one.

const npm = (...names) => `^node_modules/(${names.join("|")})/`
// Unresolvable imports are reported once, by not-to-unresolvable, rather than by every layer rule.
const only = (...allowed) => ({ pathNot: allowed, couldNotResolve: false })

// Folders of src/server that every feature shares; every other folder there is a feature.
const SHARED_SERVER = "^src/server/(http|db|cli)/"
const SERVER_FOLDER = "^src/server/[^/]+/"
// A feature's public face: src/server/<feature>/<feature>Feature.ts, named after its folder. The
// group is named because dependency-cruiser joins a pathNot list into one regex, renumbering groups.
const FEATURE_MODULE = "^src/server/(?<feature>[^/]+)/\\k<feature>Feature\\.ts$"

/** @type {import("dependency-cruiser").IForbiddenRuleType[]} */
const layers = [
  {
    name: "domain-imports-domain-and-effect",
    comment:
      "Both ends import the domain, so it stays pure: no other layer, no I/O, no Node built-ins; only the schema and date libraries.",
    severity: "error",
    from: { path: "^src/domain/" },
    to: only("^src/domain/", npm("effect", "@date-fns/tz", "date-fns"))
  },
  {
    name: "machines-import-domain-and-xstate",
    comment: "Machines describe flows; side effects come in through machine.provide in src/app.",
    severity: "error",
    from: { path: "^src/machines/" },
    to: only("^src/(domain|machines)/", npm("xstate"))
  },
  {
    name: "ui-imports-domain-machines-and-view-libraries",
    comment: "Views get adapters through the services context that src/app fills, never by import.",
    severity: "error",
    from: { path: "^src/ui/" },
    to: only(
      "^src/(domain|machines|ui)/",
      npm(
        "react",
        "react-dom",
        "react-router-dom",
        "@xstate/react",
        "@radix-ui/[^/]+",
        "@vanilla-extract/[^/]+",
        "xstate",
        "@tanstack/react-virtual",
        "react-day-picker",
        "uplot"
      )
    )
  },
  {
    name: "adapters-import-domain-and-packages",
    comment: "Adapters are the browser's side effects behind the domain's types, usable by any feature.",
    severity: "error",
    from: { path: "^src/adapters/" },
    to: only("^src/(domain|adapters)/", "^node_modules/")
  },
  {
    name: "app-imports-browser-layers",
    comment: "src/app wires the browser side and ships in the bundle: the server must stay out of it.",
    severity: "error",
    from: { path: "^src/app/" },
    to: only("^src/(domain|machines|adapters|ui|app)/", "^node_modules/")
  },
  {
    name: "server-imports-domain-and-server",
    comment: "The server shares only the domain (contract, schemas, rules) with the browser side.",
    severity: "error",
    from: { path: "^src/server/" },
    to: { ...only("^src/(domain|server)/", "^node_modules/"), dependencyTypesNot: ["core"] }
  },
  {
    name: "server-feature-imports-other-features-by-feature-module",
    comment: "A feature calls what another feature exports, so each can change its own files freely.",
    severity: "error",
    from: { path: "^src/server/([^/]+)/", pathNot: SHARED_SERVER },
    to: { path: SERVER_FOLDER, pathNot: ["^src/server/$1/", "^src/server/(http|db)/", "^src/server/cli/command\\.ts$", FEATURE_MODULE] }
  },
  {
    name: "server-shared-imports-no-feature",
    comment: "http and db hold only what every feature shares; knowing a feature would tie them to it.",
    severity: "error",
    from: { path: "^src/server/(http|db)/" },
    to: { path: SERVER_FOLDER, pathNot: SHARED_SERVER }
  },
  {
    name: "server-roots-import-features-by-feature-module",
    comment: "The composition roots list features; they must not reach past a feature's module.",
    severity: "error",
    from: { path: ["^src/server/(app|main|serve|seed)\\.ts$", "^src/server/cli/admin\\.ts$"] },
    to: { path: SERVER_FOLDER, pathNot: [SHARED_SERVER, FEATURE_MODULE] }
  },
  // dependency-cruiser keeps one edge per imported module, so a re-export from a module the file
  // also imports shows up as the import alone: boundaries.test.ts reads re-exports itself as well.
  {
    name: "no-re-exports",
    comment: "Every name is imported from the module that defines it: no barrels, no second paths.",
    severity: "error",
    from: { path: "^src/" },
    to: { dependencyTypes: ["export"] }
  },
  {
    name: "not-to-unresolvable",
    comment: "An import the cruiser cannot resolve is an edge no rule above can see.",
    severity: "error",
    from: {},
    to: { couldNotResolve: true }
  }
]

/** @type {import("dependency-cruiser").IConfiguration["options"]} */
const options = {
  // TypeScript 7 has no compiler API that dependency-cruiser 18 can load, so swc parses .ts/.tsx.
  parser: "swc",
  doNotFollow: { path: "^node_modules/" },
  // Imports name their files with .ts/.tsx; packages resolve through their exports, as in Vite.
  enhancedResolveOptions: {
    extensions: [".ts", ".tsx", ".mjs", ".js", ".d.ts"],
    exportsFields: ["exports"],
    conditionNames: ["import", "browser", "node", "default"],
    mainFields: ["module", "main"]
  }
}

/** @type {import("dependency-cruiser").IConfiguration} */
export default { forbidden: layers, options }

/**
 * The player page's entry must start a stream before any UI framework, state machine library or
 * schema library loads: only the imports executed before its first `import()` count, so this is
 * cruised from src/app/main.tsx alone, not following type-only or dynamic imports.
 * @type {import("dependency-cruiser").IConfiguration}
 */
export const entryConfig = {
  forbidden: [
    {
      name: "entry-loads-no-framework",
      comment: "Everything main.tsx loads statically is on the critical path of a player page's first frame.",
      severity: "error",
      from: { path: "^src/" },
      to: {
        path: npm("react", "react-dom", "react-router-dom", "xstate", "@xstate/react", "effect"),
        dependencyTypesNot: ["type-only", "dynamic-import"]
      }
    }
  ],
  options: {
    ...options,
    doNotFollow: { path: "^node_modules/", dependencyTypes: ["type-only", "dynamic-import"] }
  }
}

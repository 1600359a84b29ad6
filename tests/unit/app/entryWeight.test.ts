import { readFileSync } from "node:fs"
import { dirname, join, resolve } from "node:path"
import { describe, expect, it } from "vitest"

const root = join(import.meta.dirname, "..", "..", "..")

/** Every module the entry loads before its first `import()`: static, non-type imports, followed through. */
const staticGraph = (entry: string): { readonly files: Set<string>; readonly packages: Set<string> } => {
  const files = new Set<string>()
  const packages = new Set<string>()
  const visit = (file: string): void => {
    if (files.has(file)) return
    files.add(file)
    const source = readFileSync(file, "utf8")
    for (const match of source.matchAll(/^import\s+(type\s+)?[^"']*?from\s+["']([^"']+)["']|^import\s+["']([^"']+)["']/gm)) {
      const [, clause, fromSpecifier, bareSpecifier] = match
      const specifier = fromSpecifier ?? bareSpecifier
      if (clause !== undefined || specifier === undefined) continue
      if (specifier.startsWith(".")) visit(resolve(dirname(file), specifier))
      else packages.add(specifier.split("?")[0]?.split("/").slice(0, specifier.startsWith("@") ? 2 : 1).join("/") ?? specifier)
    }
  }
  visit(join(root, entry))
  return { files, packages }
}

describe("the page's entry", () => {
  it("loads no UI framework, router, state machines or schema library before a player page's first frame", () => {
    const { files, packages } = staticGraph("src/app/main.tsx")
    expect([...packages].sort()).toEqual(["@vanilla-extract/css", "hls.js"])
    expect([...files].map((file) => file.slice(root.length + 1)).filter((file) => /machines\/|\.tsx$/.test(file))).toEqual(["src/app/main.tsx"])
  })

  it("mounts the app with the shell's machines only: each feature's machines load with its first page", () => {
    const { files, packages } = staticGraph("src/app/mountApp.tsx")
    const machines = [...files].map((file) => file.slice(root.length + 1)).filter((file) => file.includes("/machines/"))
    // sign-in is the shell's: its form is the only page machine a visit's first page always needs
    expect(machines.filter((file) => !file.startsWith("src/machines/shell/") && !file.startsWith("src/machines/shared/"))).toEqual([
      "src/machines/account/loginFormMachine.ts"
    ])
    // the contract's schemas need no calendar: date arithmetic comes with the pages that do it
    expect([...packages].filter((name) => name.includes("date-fns"))).toEqual([])
  })
})

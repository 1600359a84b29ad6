import { readFileSync } from "node:fs"
import { dirname, join, resolve } from "node:path"

export const root = join(import.meta.dirname, "..", "..")

/** Every module the entry loads before its first `import()`: static, non-type imports, followed through. */
export const staticGraph = (entry: string): { readonly files: Set<string>; readonly packages: Set<string> } => {
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
      else
        packages.add(
          specifier
            .split("?")[0]
            ?.split("/")
            .slice(0, specifier.startsWith("@") ? 2 : 1)
            .join("/") ?? specifier
        )
    }
  }
  visit(join(root, entry))
  return { files, packages }
}

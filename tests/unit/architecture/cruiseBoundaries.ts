import { existsSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { allExtensions, cruise, type ICruiseOptions, type ICruiseResult } from "dependency-cruiser"
import extractDepcruiseOptions from "dependency-cruiser/config-utl/extract-depcruise-options"
import { parseSync } from "vite"

export const repoRoot = join(import.meta.dirname, "..", "..", "..")
/** The layer rules, cruised over a whole tree. */
export const layerConfig = join(repoRoot, ".dependency-cruiser.mjs")
/** The player-page entry rule, cruised from src/app/main.tsx alone. */
export const entryConfig = join(import.meta.dirname, "entry.dependency-cruiser.mjs")

/** One broken rule as a developer reads it: `rule: from -> to`. */
export type Finding = string

export interface Cruise {
  readonly findings: ReadonlyArray<Finding>
  readonly result: ICruiseResult
  readonly options: ICruiseOptions
}

/** Without a parser for .ts/.tsx, dependency-cruiser skips every file of src and finds nothing wrong. */
export const parsesTypeScript = (): boolean =>
  [".ts", ".tsx"].every((extension) => allExtensions.some((found) => found.extension === extension && found.available))

/** Runs a config file exactly as the CLI would read it, over `entries` relative to `baseDir`. */
export const cruiseWith = async (configFile: string, baseDir: string, entries: ReadonlyArray<string>): Promise<Cruise> => {
  const options = await extractDepcruiseOptions(configFile)
  const { output } = await cruise([...entries], { ...options, baseDir, outputType: "json" })
  const result: ICruiseResult = typeof output === "string" ? JSON.parse(output) : output
  const findings = (result.summary.violations ?? []).map((violation) => `${violation.rule.name}: ${violation.from} -> ${violation.to}`)
  return { findings: findings.sort(), result, options }
}

const RE_EXPORT_RULE = "no-re-exports"

const reExportedFrom = (file: string, source: string): ReadonlyArray<string> =>
  parseSync(file, source).program.body.flatMap((node) =>
    (node.type === "ExportNamedDeclaration" || node.type === "ExportAllDeclaration") && node.source !== null ? [node.source.value] : []
  )

/**
 * dependency-cruiser keeps one dependency per module, type-only-ness and module system, so a file
 * that imports a module and re-exports from it too shows only the import. This reads the re-exports
 * of every cruised file itself and reports them the way the no-re-exports rule does.
 */
export const withReExports = ({ findings, result, options }: Cruise, baseDir: string): ReadonlyArray<Finding> => {
  if (!(options.ruleSet?.forbidden ?? []).some((rule) => rule.name === RE_EXPORT_RULE)) return findings
  const reExports = result.modules
    .filter((module) => /^src\/.*\.[cm]?[jt]sx?$/.test(module.source) && existsSync(join(baseDir, module.source)))
    .flatMap((module) =>
      reExportedFrom(module.source, readFileSync(join(baseDir, module.source), "utf8")).map((specifier) => {
        const resolved = module.dependencies.find((dependency) => dependency.module === specifier)?.resolved
        return `${RE_EXPORT_RULE}: ${module.source} -> ${resolved ?? specifier}`
      })
    )
  return [...new Set([...findings, ...reExports])].sort()
}

export const dependenciesBetween = (result: ICruiseResult, from: string, to: string): number =>
  result.modules
    .filter((module) => module.source.startsWith(from))
    .flatMap((module) => module.dependencies)
    .filter((dependency) => dependency.resolved.startsWith(to)).length

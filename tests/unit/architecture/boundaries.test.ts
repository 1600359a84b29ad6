import { readdirSync, rmSync } from "node:fs"
import { join } from "node:path"
import extractDepcruiseOptions from "dependency-cruiser/config-utl/extract-depcruise-options"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { cruiseWith, dependenciesBetween, entryConfig, layerConfig, parsesTypeScript, repoRoot, withReExports } from "./cruiseBoundaries.ts"
import { ENTRY_FINDINGS, LAYER_FINDINGS, writeViolationTree } from "./violationTree.ts"

const ruleNames = async (configFile: string): Promise<ReadonlyArray<string>> =>
  ((await extractDepcruiseOptions(configFile)).ruleSet?.forbidden ?? []).map((rule) => rule.name ?? "")

const ruleOf = (finding: string): string => finding.slice(0, finding.indexOf(":"))

describe("the layer rules of DESIGN.md", () => {
  it("are cruised over TypeScript that dependency-cruiser can parse", () => {
    expect(
      parsesTypeScript(),
      "dependency-cruiser 18 cannot load TypeScript 7's compiler API: it parses .ts and .tsx with @swc/core, which must be installed"
    ).toBe(true)
  })

  it("hold in src (each line: rule: from -> to)", async () => {
    const cruised = await cruiseWith(layerConfig, repoRoot, ["src"])
    const seen = new Set(cruised.result.modules.map((module) => module.source))
    const sources = readdirSync(join(repoRoot, "src"), { recursive: true, encoding: "utf8" })
      .filter((file) => /\.tsx?$/.test(file))
      .map((file) => `src/${file.split("\\").join("/")}`)
    expect(
      sources.filter((source) => !seen.has(source)),
      "files dependency-cruiser did not read"
    ).toEqual([])
    expect(dependenciesBetween(cruised.result, "src/ui/", "src/machines/")).toBeGreaterThan(0)
    expect(withReExports(cruised, repoRoot)).toEqual([])
  })

  it("keep every framework out of what the player page's entry loads before its first frame", async () => {
    const cruised = await cruiseWith(entryConfig, repoRoot, ["src/app/main.tsx"])
    expect(cruised.result.modules.some((module) => module.source === "src/app/main.tsx")).toBe(true)
    expect(cruised.findings).toEqual([])
  })
})

describe("each layer rule, on a tree that breaks it once", () => {
  let tree = ""
  beforeAll(() => {
    tree = writeViolationTree()
  })
  afterAll(() => rmSync(tree, { recursive: true, force: true }))

  it("reports exactly the deliberate violations and none of the allowed imports", async () => {
    const cruised = await cruiseWith(layerConfig, tree, ["src"])
    expect(withReExports(cruised, tree)).toEqual(LAYER_FINDINGS)
  })

  it("reports the entry reaching react at run time, not through type-only or dynamic imports", async () => {
    const cruised = await cruiseWith(entryConfig, tree, ["src/app/main.tsx"])
    expect(cruised.findings).toEqual(ENTRY_FINDINGS)
  })

  it("leaves no rule of either config without a deliberate violation", async () => {
    expect([...(await ruleNames(layerConfig))].sort()).toEqual([...new Set(LAYER_FINDINGS.map(ruleOf))].sort())
    expect(await ruleNames(entryConfig)).toEqual([...new Set(ENTRY_FINDINGS.map(ruleOf))])
  })
})

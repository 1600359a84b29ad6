import { AxeBuilder } from "@axe-core/playwright"
import type { Page } from "playwright-core"

/** WCAG 2.2 A and AA, plus axe's best practices. */
export const AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]

/** Serious and critical violations on the page as it is, one readable line per rule and element. */
export const seriousViolations = async (page: Page): Promise<Array<string>> => {
  const results = await new AxeBuilder({ page }).withTags(AXE_TAGS).analyze()
  return results.violations
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .flatMap((violation) =>
      violation.nodes.map((node) =>
        `${violation.id} (${violation.impact}) at ${node.target.join(" > ")}: ${violation.help}. ${node.failureSummary ?? ""}`.replace(
          /\s+/g,
          " "
        )
      )
    )
}

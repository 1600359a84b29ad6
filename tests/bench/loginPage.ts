import { readFileSync } from "node:fs"
import { join } from "node:path"
import { gzipSync } from "node:zlib"
import type { Browser } from "playwright-core"
import { median, row } from "./stats.ts"

/** Slow 4G as Lighthouse throttles it: 150 ms round trip, 1.6 Mbit/s down, 750 kbit/s up. */
const SLOW_4G = { offline: false, latency: 150, downloadThroughput: (1.6 * 1024 * 1024) / 8, uploadThroughput: (750 * 1024) / 8 }

interface LoginLoad {
  readonly lcpMs: number
  /** what came over the wire for scripts, compressed as served */
  readonly scriptWireBytes: number
  readonly scripts: ReadonlyArray<string>
}

async function openLogin(browser: Browser, url: string): Promise<LoginLoad> {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } })
  try {
    const page = await context.newPage()
    const cdp = await context.newCDPSession(page)
    await cdp.send("Network.enable")
    await cdp.send("Network.setCacheDisabled", { cacheDisabled: true })
    await cdp.send("Network.emulateNetworkConditions", SLOW_4G)
    const scriptRequests = new Map<string, string>()
    let scriptWireBytes = 0
    cdp.on("Network.responseReceived", (event) => {
      if (event.type === "Script") scriptRequests.set(event.requestId, event.response.url)
    })
    cdp.on("Network.loadingFinished", (event) => {
      if (scriptRequests.has(event.requestId)) scriptWireBytes += event.encodedDataLength
    })
    await page.addInitScript(() => {
      const seen = window as unknown as { lcp: number }
      seen.lcp = 0
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) seen.lcp = entry.startTime
      }).observe({ type: "largest-contentful-paint", buffered: true })
    })
    await page.goto(`${url}/login`)
    await page.getByRole("heading", { name: "Sign in" }).waitFor({ timeout: 30_000 })
    await page.waitForTimeout(300)
    const lcpMs = await page.evaluate(() => (window as unknown as { lcp: number }).lcp)
    return { lcpMs, scriptWireBytes, scripts: [...scriptRequests.values()] }
  } finally {
    await context.close()
  }
}

/** What /login loads and how soon it paints on a slow phone connection. */
export async function benchLoginPage(browser: Browser, url: string, staticDir: string, rounds: number): Promise<void> {
  const loads: Array<LoginLoad> = []
  for (let round = 0; round < rounds; round += 1) loads.push(await openLogin(browser, url))
  const scripts = loads[0]?.scripts ?? []
  const gzipBytes = scripts.reduce((sum, script) => {
    const file = join(staticDir, new URL(script).pathname)
    return sum + gzipSync(readFileSync(file), { level: 9 }).length
  }, 0)
  console.log(row(`/login, n=${rounds}`, ["figure", "goal", ""]))
  console.log(row(`  JS it loads, gzip KB (${scripts.length} files)`, [(gzipBytes / 1000).toFixed(1), "<= 120", ""]))
  console.log(row("  JS over the wire KB (brotli)", [(median(loads.map((load) => load.scriptWireBytes)) / 1000).toFixed(1), "", ""]))
  console.log(row("  LCP ms, slow 4G (150 ms, 1.6 Mb/s)", [median(loads.map((load) => load.lcpMs)).toFixed(0), "<= 1500", ""]))
}

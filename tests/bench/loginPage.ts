import { readFileSync } from "node:fs"
import { join } from "node:path"
import { gzipSync } from "node:zlib"
import type { Browser } from "playwright-core"
import { median, row } from "./stats.ts"

/** Slow 4G as Lighthouse throttles it: 150 ms round trip, 1.6 Mbit/s down, 750 kbit/s up. */
const SLOW_4G = { offline: false, latency: 150, downloadThroughput: (1.6 * 1024 * 1024) / 8, uploadThroughput: (750 * 1024) / 8 }

/**
 * How /login is served: `prerendered` as the server answers it (the page's HTML, hydrated by the
 * script), `shell` as the plain single-page shell (index.html, which the script renders into),
 * fetched over the same throttled connection in place of the page.
 */
type Variant = "prerendered" | "shell"

interface LoginLoad {
  readonly lcpMs: number
  /** when React owns the sign-in form, so a click on Sign in signs in */
  readonly usableMs: number
  /** what came over the wire for scripts, compressed as served */
  readonly scriptWireBytes: number
  readonly scripts: ReadonlyArray<string>
}

async function openLogin(browser: Browser, url: string, variant: Variant): Promise<LoginLoad> {
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
    // the document goes over the network either way (a continued request, unlike a fulfilled one, is throttled)
    await page.route(`${url}/login`, (route) => route.continue(variant === "shell" ? { url: `${url}/` } : {}))
    await page.goto(`${url}/login`)
    await page.getByRole("heading", { name: "Sign in" }).waitFor({ timeout: 30_000 })
    const usableMs = await page
      .waitForFunction(
        () => {
          const email = document.getElementById("login-email")
          return email !== null && Object.keys(email).some((key) => key.startsWith("__reactFiber")) ? performance.now() : false
        },
        undefined,
        { polling: 10, timeout: 30_000 }
      )
      .then((handle) => handle.jsonValue() as Promise<number>)
    await page.waitForTimeout(300)
    const lcpMs = await page.evaluate(() => (window as unknown as { lcp: number }).lcp)
    return { lcpMs, usableMs, scriptWireBytes, scripts: [...scriptRequests.values()] }
  } finally {
    await context.close()
  }
}

/**
 * What /login loads and how soon it paints on a slow phone connection, prerendered as served and,
 * for comparison in the same run, as the plain single-page shell; the two alternate round by round.
 */
export async function benchLoginPage(browser: Browser, url: string, staticDir: string, requestedRounds: number): Promise<void> {
  const rounds = Math.max(3, requestedRounds)
  const loads: Array<LoginLoad> = []
  const shellLoads: Array<LoginLoad> = []
  for (let round = 0; round < rounds; round += 1) {
    shellLoads.push(await openLogin(browser, url, "shell"))
    loads.push(await openLogin(browser, url, "prerendered"))
  }
  const scripts = loads[0]?.scripts ?? []
  const gzipBytes = scripts.reduce((sum, script) => {
    const file = join(staticDir, new URL(script).pathname)
    return sum + gzipSync(readFileSync(file), { level: 9 }).length
  }, 0)
  console.log(row(`/login, n=${rounds}`, ["figure", "goal", ""]))
  console.log(row(`  JS it loads, gzip KB (${scripts.length} files)`, [(gzipBytes / 1000).toFixed(1), "<= 170", ""]))
  console.log(row("  JS over the wire KB (brotli)", [(median(loads.map((load) => load.scriptWireBytes)) / 1000).toFixed(1), "", ""]))
  const ms = (of: ReadonlyArray<LoginLoad>, figure: (load: LoginLoad) => number) => median(of.map(figure)).toFixed(0)
  console.log(row("  LCP ms, slow 4G (150 ms, 1.6 Mb/s)", [ms(loads, (load) => load.lcpMs), "<= 1000", ""]))
  console.log(row("    as the plain SPA shell", [ms(shellLoads, (load) => load.lcpMs), "", ""]))
  console.log(row("  form usable ms (hydrated), slow 4G", [ms(loads, (load) => load.usableMs), "", ""]))
  console.log(row("    as the plain SPA shell", [ms(shellLoads, (load) => load.usableMs), "", ""]))
}

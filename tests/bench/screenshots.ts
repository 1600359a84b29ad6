/**
 * Screenshots of both players for a look by eye: at 1440 and 390 px, with the control bar shown
 * and hidden, the side list, and the error box of an unreachable stream. Needs a build (`vite
 * build`). Usage: `node tests/bench/screenshots.ts [out-dir]` (default: a new temp dir).
 */
import { mkdtemp } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { admin, freePort, launchBrowser, startServer } from "../support/e2eHarness.ts"

const out = process.argv[2] ?? (await mkdtemp(join(tmpdir(), "player-shots-")))
const server = await startServer({ SIGN_IN_LIMIT_PER_MINUTE: "1000" })
const browser = await launchBrowser()
try {
  await admin(server, "user:create", "--email", "a@example.com", "--password", "correct horse battery")
  const closed = `http://127.0.0.1:${await freePort()}/x.m3u8`
  await admin(
    server,
    "stream:add",
    "--title",
    "Broken Channel",
    "--src",
    closed,
    "--src-sldp",
    closed,
    "--tags",
    "?Commentary in Norwegian and English with a rather long description that should be cut after two lines in the footer of the player,HD,chromecast"
  )
  const login = await fetch(`${server.url}/api/users/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: "a@example.com", password: "correct horse battery", isMobile: false })
  })
  const { token } = (await login.json()) as { token: string }
  for (const width of [1440, 390]) {
    const context = await browser.newContext({
      viewport: { width, height: width > 500 ? 900 : 844 },
      storageState: { cookies: [], origins: [{ origin: server.url, localStorage: [{ name: "Token", value: token }] }] },
      ...(width < 500 ? { hasTouch: true, isMobile: true, deviceScaleFactor: 2 } : {})
    })
    const page = await context.newPage()
    page.on("pageerror", (e) => console.log("pageerror:", e.message))
    for (const path of ["/player?default=0", "/playersldp?default=1"]) {
      await page.goto(`${server.url}${path}`)
      await page.waitForFunction(() => (document.querySelector("video")?.currentTime ?? 0) > 0.5, undefined, { timeout: 20000 })
      const box = await page.getByRole("region", { name: "Video player" }).boundingBox()
      if (box === null) throw new Error("the player has no box")
      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2)
      await page.mouse.move(box.x + box.width / 2 + 5, box.y + box.height / 2)
      await page.waitForTimeout(300)
      const name = `${width}${path.replace(/[^a-z0-9]+/gi, "_")}`
      await page.screenshot({ path: join(out, `${name}_shown.png`), fullPage: true })
      await page.mouse.move(1, 1)
      await page.waitForTimeout(2600)
      await page.screenshot({ path: join(out, `${name}_hidden.png`) })
    }
    await page.goto(`${server.url}/player?default=2`)
    await page.getByRole("alert").waitFor({ timeout: 30000 })
    await page.screenshot({ path: join(out, `${width}_error.png`), fullPage: true })
    await context.close()
  }
  console.log(`screenshots in ${out}`)
} finally {
  await browser.close()
  await server.stop()
}

import { execFile } from "node:child_process"
import { join } from "node:path"
import { promisify } from "node:util"
import { describe, expect, it } from "vitest"
import { ConfigError, loadConfig } from "../../src/server/config.ts"
import { errorInOneLine, serverLogger } from "../../src/server/logOutput.ts"

const root = join(import.meta.dirname, "..", "..")

/** What the server's logger writes to standard output in a process of its own, for LOG_FORMAT `format`. */
const logged = async (format: string): Promise<Array<string>> => {
  const script = `
    import pino from "pino"
    import { serverLogger } from "./src/server/logOutput.ts"
    const { stream, ...options } = serverLogger("info", ${JSON.stringify(format)})
    const log = pino(options, stream)
    log.info({ reqId: "req-1" }, "Server listening")
    log.debug("not at this level")
    log.error({ err: Object.assign(new Error("the database went away"), { code: "ECONNRESET" }) }, "mail not sent")
  `
  const { stdout } = await promisify(execFile)(process.execPath, ["--input-type=module", "-e", script], {
    cwd: root,
    env: { ...process.env, NO_COLOR: "1" }
  })
  return stdout.split("\n").filter((line) => line !== "")
}

describe("the server's log", () => {
  it("is JSON for machines: one object per entry, the error whole", async () => {
    const [listening, failed, ...rest] = (await logged("json")).map((line) => JSON.parse(line) as Record<string, unknown>)
    expect(rest).toEqual([])
    expect(listening).toMatchObject({ level: 30, msg: "Server listening", reqId: "req-1" })
    expect(failed).toMatchObject({ level: 50, msg: "mail not sent", err: { message: "the database went away", code: "ECONNRESET" } })
    expect(String((failed?.err as { stack?: string } | undefined)?.stack).split("\n").length).toBeGreaterThan(2)
  })

  it("is one readable line per entry for people: time, level, message, the error in short, the other fields", async () => {
    const lines = await logged("pretty")
    expect(lines).toHaveLength(2)
    expect(lines[0]).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: Server listening \{"reqId":"req-1"\}$/)
    expect(lines[1]).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] ERROR: mail not sent · Error: the database went away \(ECONNRESET\) at /)
  })

  it("is readable on a terminal and JSON elsewhere unless LOG_FORMAT says which", () => {
    expect(serverLogger("info", undefined, { isTTY: true })).toHaveProperty("stream")
    expect(serverLogger("info", undefined, { isTTY: false })).toEqual({ level: "info" })
    expect(serverLogger("warn", "json", { isTTY: true })).toEqual({ level: "warn" })
    expect(serverLogger("info", "pretty", { isTTY: false })).toHaveProperty("stream")
    expect(loadConfig({}).logFormat).toBeUndefined()
    expect(loadConfig({ LOG_FORMAT: "JSON" }).logFormat).toBe("json")
    expect(loadConfig({ LOG_FORMAT: "pretty" }).logFormat).toBe("pretty")
    expect(() => loadConfig({ LOG_FORMAT: "yaml" })).toThrow(ConfigError)
  })

  it("puts an error in one line even when pino could not serialise it", () => {
    expect(errorInOneLine("a plain string")).toBe("a plain string")
    expect(
      errorInOneLine({ type: "TypeError", message: "x is not a function", stack: "TypeError: x\n    at run (/srv/a.js:1:2)\n    at b" })
    ).toBe("TypeError: x is not a function at run (/srv/a.js:1:2)")
  })
})

import path from "node:path"
import { describe, expect, it } from "vitest"
import { ConfigError, loadConfig } from "../../src/server/config.ts"

describe("loadConfig", () => {
  it("has working defaults", () => {
    const config = loadConfig({}, "/srv/app")
    expect(config).toMatchObject({
      port: 8080,
      host: "127.0.0.1",
      dataDir: "/srv/app/data",
      databaseUrl: undefined,
      publicUrl: "http://localhost:8080",
      smtpUrl: undefined,
      mailFrom: "StreamHub <no-reply@streamhub.local>",
      trustProxy: false,
      connectionsPerAddress: 256,
      rateLimits: {}
    })
    expect(path.basename(config.staticDir)).toBe("dist")
    expect(path.basename(config.mediaDir)).toBe("media")
    expect(path.isAbsolute(config.staticDir)).toBe(true)
  })

  it("reads the environment", () => {
    const config = loadConfig(
      {
        PORT: "9000",
        HOST: "0.0.0.0",
        DATA_DIR: "state",
        DATABASE_URL: "postgres://u:p@db/app",
        PUBLIC_URL: "https://tv.example.com/",
        SMTP_URL: "smtps://u:p@mail.example.com",
        TRUST_PROXY: "true"
      },
      "/srv/app"
    )
    expect(config).toMatchObject({
      port: 9000,
      host: "0.0.0.0",
      dataDir: "/srv/app/state",
      databaseUrl: "postgres://u:p@db/app",
      publicUrl: "https://tv.example.com",
      smtpUrl: "smtps://u:p@mail.example.com",
      mailFrom: "StreamHub <no-reply@tv.example.com>",
      trustProxy: 1,
      connectionsPerAddress: undefined
    })
    expect(loadConfig({ PORT: "9000" }).publicUrl).toBe("http://localhost:9000")
    expect(loadConfig({ TRUST_PROXY: "2" }).trustProxy).toBe(2)
    expect(loadConfig({ TRUST_PROXY: "10.0.0.0/8, 192.168.1.7,loopback" }).trustProxy).toEqual(["10.0.0.0/8", "192.168.1.7", "loopback"])
    expect(loadConfig({ TRUST_PROXY: "no" }).trustProxy).toBe(false)
    expect(() => loadConfig({ TRUST_PROXY: "11" })).toThrow(/TRUST_PROXY must be/)
    expect(() => loadConfig({ TRUST_PROXY: "10.0.0.0/99" })).toThrow(/TRUST_PROXY must be/)
    expect(loadConfig({ DATABASE_URL: "  " }).databaseUrl).toBeUndefined()
    expect(loadConfig({ SIGN_IN_LIMIT_PER_MINUTE: "1000", API_LIMIT_PER_MINUTE: "5000" }).rateLimits).toEqual({
      signInPerMinute: 1000,
      apiPerMinute: 5000
    })
  })

  it("names every bad value at once", () => {
    let error: unknown
    try {
      loadConfig({ PORT: "80a", DATABASE_URL: "mysql://x", PUBLIC_URL: "tv.example.com", SMTP_URL: "http://x", TRUST_PROXY: "maybe" })
    } catch (caught) {
      error = caught
    }
    expect(error).toBeInstanceOf(ConfigError)
    const problems = (error as ConfigError).problems
    expect(problems).toHaveLength(5)
    expect(problems[0]).toBe('PORT must be a whole number from 0 to 65535 (got "80a")')
    expect((error as Error).message).toContain("DATABASE_URL must be a postgres:// or postgresql:// URL")
    expect(() => loadConfig({ PORT: "70000" })).toThrow(/PORT/)
    expect(() => loadConfig({ SIGN_IN_LIMIT_PER_MINUTE: "0" })).toThrow(/SIGN_IN_LIMIT_PER_MINUTE/)
  })
})

import { describe, expect, it } from "vitest"
import { hashPassword, verifyAgainstDummy, verifyPassword } from "../../../src/server/account/passwords.ts"

const SALT = "c2FsdHNhbHRzYWx0" // 12 bytes
const TAG = "A".repeat(43) // 32 bytes

describe("password hashing", () => {
  it("stores argon2id PHC strings with a fresh salt and verifies them", async () => {
    const [a, b] = await Promise.all([hashPassword("hunter2 hunter2"), hashPassword("hunter2 hunter2")])
    expect(a).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/)
    expect(a).not.toBe(b)
    expect(await verifyPassword("hunter2 hunter2", a)).toBe(true)
    expect(await verifyPassword("hunter2 hunter3", a)).toBe(false)
    expect(await verifyPassword("", a)).toBe(false)
  })

  it("rejects hashes it cannot read instead of throwing", async () => {
    expect(await verifyPassword("x", "")).toBe(false)
    expect(await verifyPassword("x", "$2b$10$abcdefghijklmnopqrstuu")).toBe(false)
    expect(await verifyPassword("x", "$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA")).toBe(false)
    // argon2 refuses these: a salt under 8 bytes, less memory than 8 KiB a lane
    expect(await verifyPassword("x", `$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$${TAG}`)).toBe(false)
    expect(await verifyPassword("x", `$argon2id$v=19$m=1,t=2,p=1$${SALT}$${TAG}`)).toBe(false)
    // and the hashes after them still run
    expect(await verifyPassword("hunter2 hunter2", await hashPassword("hunter2 hunter2"))).toBe(true)
  })

  it("spends a verification on unknown accounts too", async () => {
    expect(await verifyAgainstDummy("anything")).toBe(false)
  })
})

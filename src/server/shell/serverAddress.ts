import type { Kysely } from "kysely"
import type { Tables } from "../db/schema.ts"
import { getSetting, setSetting } from "./settingsRepo.ts"

// Not a site setting: the address the server last started with, so the operator CLI, which may
// run without the server's environment, builds links the way the server does.
const SERVER_ADDRESS = "internal.serverAddress"

export interface ServerAddress {
  readonly publicUrl: string
  /** ISO time of that start */
  readonly startedAt: string
}

export async function rememberServerAddress(db: Kysely<Tables>, address: ServerAddress): Promise<void> {
  await setSetting(db, SERVER_ADDRESS, address)
}

export async function lastServerAddress(db: Kysely<Tables>): Promise<ServerAddress | undefined> {
  const stored = await getSetting(db, SERVER_ADDRESS)
  if (typeof stored !== "object" || stored === null) return undefined
  const { publicUrl, startedAt } = stored as Partial<Record<keyof ServerAddress, unknown>>
  return typeof publicUrl === "string" && typeof startedAt === "string" ? { publicUrl, startedAt } : undefined
}

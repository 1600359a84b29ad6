import type { SiteSettings } from "../../src/domain/SiteSettings.ts"
import { hashPassword } from "../../src/server/account/passwords.ts"
import { insertUser } from "../../src/server/account/usersRepo.ts"
import type { Db } from "../../src/server/db/database.ts"
import type { UserRow } from "../../src/server/db/schema.ts"
import { newInviteToken } from "../../src/server/invites/inviteCodes.ts"
import { insertAnnouncement } from "../../src/server/shell/announcementsRepo.ts"
import { setMaintenance } from "../../src/server/shell/maintenanceRepo.ts"
import { setSettings } from "../../src/server/shell/settingsRepo.ts"
import type { NewStreamInput } from "../../src/server/streams/streamsRepo.ts"
import { insertStream } from "../../src/server/streams/streamsRepo.ts"

export const DEFAULT_PASSWORD = "correct horse"

export interface SeedUser {
  readonly email: string
  /** Defaults to DEFAULT_PASSWORD, whose hash is computed once per test file. */
  readonly password?: string
  readonly username?: string
  readonly staff?: boolean
  /** Defaults to true. */
  readonly verified?: boolean
}

export interface Seed {
  /** Defaults to ann@example.com with DEFAULT_PASSWORD. */
  readonly users?: ReadonlyArray<SeedUser>
  /** Defaults to `demoStreams`. */
  readonly streams?: ReadonlyArray<NewStreamInput>
  readonly announcement?: { readonly token: string; readonly title: string; readonly text: string }
  /** Turns maintenance mode on with this notice. */
  readonly maintenance?: { readonly title: string; readonly firstRowText: string; readonly secondRowText: string }
  readonly settings?: Partial<SiteSettings>
}

export const demoStreams: ReadonlyArray<NewStreamInput> = [
  {
    title: "Sports One",
    src: "/live/demo1/index.m3u8",
    src_sldp: "/live/demo1/index.m3u8",
    image_location: "/img/1.svg",
    tags: "chromecast,airplay,HD",
    tags_sldp: "lls,!Audio out of sync,?English commentary"
  },
  { title: "Sports Two", src: "/live/demo2/index.m3u8", image_location: "/img/2.svg" },
  { title: "Closed Channel", src: "/live/demo3/index.m3u8", image_location: "/img/3.svg", maintenance_mode: true },
  { title: "Premium Channel", src: null, image_location: "/img/4.svg" }
]

// Captured before any test fakes Date, so the server's clock keeps real time.
export const realNow = Date.now.bind(Date)

// Argon2 costs tens of milliseconds a hash: one hash of the shared password serves every user.
let defaultHash: Promise<string> | undefined
const passwordHash = (password: string): Promise<string> => {
  if (password !== DEFAULT_PASSWORD) return hashPassword(password)
  defaultHash ??= hashPassword(DEFAULT_PASSWORD)
  return defaultHash
}

export type SeededUser = UserRow & { readonly password: string }

/** Writes the seed through the server's own repositories, in one transaction. */
export async function seedDatabase(db: Db, seed: Seed): Promise<ReadonlyArray<SeededUser>> {
  const at = new Date(realNow()).toISOString()
  const accounts = await Promise.all(
    (seed.users ?? [{ email: "ann@example.com" }]).map(async (user) => {
      const password = user.password ?? DEFAULT_PASSWORD
      return { user, password, hash: await passwordHash(password) }
    })
  )
  // one transaction: one commit, one sync to disk, instead of one per row
  return db.kysely.transaction().execute(async (trx) => {
    const users = []
    for (const { user, password, hash } of accounts) {
      const row = await insertUser(trx, {
        username: user.username ?? user.email.split("@")[0] ?? "user",
        email: user.email,
        password_hash: hash,
        invite_token: newInviteToken(),
        is_staff: user.staff ?? false,
        email_verified_at: user.verified === false ? null : at,
        created_at: at
      })
      users.push({ ...row, password })
    }
    for (const stream of seed.streams ?? demoStreams) await insertStream(trx, { created_at: at, ...stream })
    if (seed.announcement !== undefined) await insertAnnouncement(trx, { ...seed.announcement, created_at: at })
    if (seed.maintenance !== undefined) {
      const { title, firstRowText, secondRowText } = seed.maintenance
      await setMaintenance(trx, { maintenance_mode: true, title, first_row_text: firstRowText, second_row_text: secondRowText }, at)
    }
    if (seed.settings !== undefined) await setSettings(trx, seed.settings)
    return users
  })
}

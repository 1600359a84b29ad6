import { randomBytes } from "node:crypto"
import type { Kysely } from "kysely"
import { DEFAULT_SITE_SETTINGS } from "../domain/SiteSettings.ts"
import { hashPassword } from "./account/passwords.ts"
import type { Tables } from "./db/schema.ts"
import { getSetting, getSettings, setSetting } from "./shell/settingsRepo.ts"
import { countStreams, insertStream } from "./streams/streamsRepo.ts"
import { countStaff, findUserByEmail, insertUser } from "./account/usersRepo.ts"
import { DEMO_CHANNELS, demoSources } from "./streams/demoChannels.ts"

export const STAFF_EMAIL = "admin@streamhub.local"
// Not a site setting: marks that the first-start content was put in place, so an operator who
// deletes the demo streams does not get them back on the next restart.
export const SEEDED_MARKER = "internal.seededAt"

export interface SeedOptions {
  /** Where to print the one-time staff credentials. */
  readonly out: (text: string) => void
  readonly publicUrl: string
  /** The live origin's media, to point the demo streams at its playlists. */
  readonly mediaDir: string
  readonly now?: () => number
}

export interface SeedResult {
  readonly seededStreams: number
  /** Present only on the start that created it; the password exists nowhere else. */
  readonly staff: { readonly email: string; readonly password: string } | undefined
}

/** First-start content; safe to run on every start. */
export async function seed(db: Kysely<Tables>, options: SeedOptions): Promise<SeedResult> {
  const now = new Date((options.now ?? Date.now)()).toISOString()
  await seedSettings(db)
  const seededStreams = await seedDemoStreams(db, options.mediaDir, now)
  const staff = await seedStaff(db, now)
  if (staff !== undefined) options.out(staffBanner(staff.email, staff.password, options.publicUrl))
  return { seededStreams, staff }
}

async function seedSettings(db: Kysely<Tables>): Promise<void> {
  const stored = await getSettings(db)
  for (const [key, value] of Object.entries(DEFAULT_SITE_SETTINGS)) {
    if (!(key in stored)) await setSetting(db, key, value)
  }
}

async function seedDemoStreams(db: Kysely<Tables>, mediaDir: string, now: string): Promise<number> {
  if ((await getSetting(db, SEEDED_MARKER)) !== undefined) return 0
  let seeded = 0
  if ((await countStreams(db)) === 0) {
    for (const channel of DEMO_CHANNELS) {
      const { src, srcSldp } = await demoSources(mediaDir, channel.name)
      await insertStream(db, {
        title: channel.title,
        src,
        src_sldp: srcSldp,
        image_location: channel.image,
        tags: channel.tags,
        tags_sldp: channel.tags,
        created_at: now
      })
      seeded += 1
    }
  }
  await setSetting(db, SEEDED_MARKER, now)
  return seeded
}

async function seedStaff(db: Kysely<Tables>, now: string): Promise<{ email: string; password: string } | undefined> {
  if ((await countStaff(db)) > 0) return undefined
  // A customer may already hold the usual address; never take over their account.
  const email = (await findUserByEmail(db, STAFF_EMAIL)) === undefined
    ? STAFF_EMAIL
    : `admin-${randomBytes(3).toString("hex")}@streamhub.local`
  const password = randomBytes(18).toString("base64url")
  await insertUser(db, {
    username: "admin",
    email,
    password_hash: await hashPassword(password),
    invite_token: randomBytes(16).toString("base64url"),
    is_staff: true,
    email_verified_at: now,
    created_at: now
  })
  return { email, password }
}

export function staffBanner(email: string, password: string, publicUrl: string): string {
  const rule = "=".repeat(64)
  return [
    rule,
    "  StreamHub: staff account created (this is the only time the password is shown)",
    `  email:    ${email}`,
    `  password: ${password}`,
    `  Sign in at ${publicUrl}/login`,
    "  Change it with: npm run admin -- user:password --email <email> --password <new>",
    rule
  ].join("\n")
}

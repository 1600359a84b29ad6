import type { Kysely } from "kysely"
import { accountSeed } from "./account/accountFeature.ts"
import type { Tables } from "./db/schema.ts"
import { demoGuide } from "./guide/guideFeature.ts"
import { demoStreams } from "./origin/originFeature.ts"
import { firstStart } from "./shell/shellFeature.ts"
import { streams } from "./streams/streamsFeature.ts"

// Not a site setting: marks that the first-start content was put in place, so an operator who
// deletes the demo streams does not get them back on the next restart.
export const SEEDED_MARKER = "internal.seededAt"
// Likewise for tying the demo streams to a generated guide; its own marker, so a database seeded
// before the guide existed gets it on its next start.
export const DEMO_GUIDE_MARKER = "internal.demoGuideAt"

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

/**
 * First-start content; safe to run on every start, and by instances starting together (serve.ts
 * also runs it under the start-up lock, which keeps even the staff account to one).
 */
export async function seed(db: Kysely<Tables>, options: SeedOptions): Promise<SeedResult> {
  const now = new Date((options.now ?? Date.now)()).toISOString()
  await firstStart.seedSettings(db)
  const seededStreams = (await firstStart.onceEver(db, SEEDED_MARKER, now, (trx) => seedDemoStreams(trx, options.mediaDir, now))) ?? 0
  await firstStart.onceEver(db, DEMO_GUIDE_MARKER, now, (trx) => tieDemoGuide(trx, options.mediaDir, now))
  // every start, so a server restarted now and then never runs out of demo programmes
  await demoGuide.keepAhead(db, Date.parse(now))
  const staff = await accountSeed.staff(db, now)
  if (staff !== undefined) options.out(staffBanner(staff.email, staff.password, options.publicUrl))
  return { seededStreams, staff }
}

async function seedDemoStreams(db: Kysely<Tables>, mediaDir: string, now: string): Promise<number> {
  if ((await streams.count(db)) > 0) return 0
  const channels = await demoStreams(mediaDir)
  for (const channel of channels) {
    await streams.add(db, {
      title: channel.title,
      src: channel.src,
      src_sldp: channel.srcSldp,
      image_location: channel.image,
      tags: channel.tags,
      tags_sldp: channel.tags,
      created_at: now
    })
  }
  return channels.length
}

/** Ties each demo stream still playing the built-in origin, and tied to nothing, to its demo guide channel. */
async function tieDemoGuide(db: Kysely<Tables>, mediaDir: string, now: string): Promise<void> {
  const [channels, all] = await Promise.all([demoStreams(mediaDir), streams.list(db)])
  for (const channel of channels) {
    const id = demoGuide.channelId(channel.name)
    const untied = all.filter((stream) => stream.src === channel.src && stream.epg_channel_id === null)
    if (untied.length === 0) continue
    await demoGuide.addChannel(db, { id, name: channel.title }, now)
    for (const stream of untied) await streams.update(db, stream.id, { epg_channel_id: id })
  }
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

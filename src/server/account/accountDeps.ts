import type { Kysely } from "kysely"
import type { Tables } from "../db/schema.ts"
import type { Counters } from "../http/counters.ts"
import type { MailWaker } from "../http/serverFeature.ts"
import { siteSettings } from "../shell/shellFeature.ts"
import type { AccountLimiter } from "./accountLimiter.ts"
import type { SignUpLimiter } from "./signUpLimiter.ts"

export interface AccountDeps {
  readonly db: Kysely<Tables>
  /** Epoch ms. */
  readonly now: () => number
  /** Origin for the links in mails. */
  readonly publicUrl: string
  readonly mailWorker: MailWaker
  /** Failed password checks count toward the same per-account lockout as failed sign-ins. */
  readonly accountLimiter: AccountLimiter
  readonly signUpLimiter: SignUpLimiter
  /** Per-address limits on mails anyone may ask for. */
  readonly counters: Counters
}

/** What every mail needs: the name from site settings (operators rename the site) and the origin. */
export async function mailSite(deps: Pick<AccountDeps, "db" | "publicUrl">): Promise<{ siteName: string; publicUrl: string }> {
  const settings = await siteSettings.read(deps.db)
  return { siteName: settings.siteName, publicUrl: deps.publicUrl }
}

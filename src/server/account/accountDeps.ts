import type { Kysely } from "kysely"
import type { Tables } from "../db/schema.ts"
import type { AccountLimiter } from "../http/rateLimits.ts"
import { readSiteSettings } from "../shell/siteSettings.ts"
import type { SignUpLimiter } from "./signUpLimiter.ts"

/** The part of the mail worker a request needs: a nudge once its mail is committed. */
export interface MailWaker {
  wake(): void
}

export interface AccountDeps {
  readonly db: Kysely<Tables>
  /** Epoch ms. */
  readonly now: () => number
  /** Origin for the links in mails. */
  readonly publicUrl: string
  readonly mail: MailWaker
  /** Failed password checks count toward the same per-account lockout as failed sign-ins. */
  readonly accountLimiter: AccountLimiter
  readonly signUpLimiter: SignUpLimiter
}

/** What every mail needs: the name from site settings (operators rename the site) and the origin. */
export async function mailSite(deps: Pick<AccountDeps, "db" | "publicUrl">): Promise<{ siteName: string; publicUrl: string }> {
  const settings = await readSiteSettings(deps.db)
  return { siteName: settings.siteName, publicUrl: deps.publicUrl }
}

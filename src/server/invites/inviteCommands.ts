import type { Kysely } from "kysely"
import { inviteLink as inviteUrl } from "../../domain/Invitation.ts"
import { type Command, CommandFailure, requireEmail } from "../cli/command.ts"
import type { Config } from "../config.ts"
import type { Tables } from "../db/schema.ts"
import { serverAddress } from "../shell/shellFeature.ts"
import { findInviter } from "./invitationsRepo.ts"

export const inviteLink: Command = {
  name: "invite:link",
  usage: "--email E",
  summary: "Print an account's invite link (new members register through it)",
  options: { email: { type: "string" } },
  async run(args, { db, config, out, err }) {
    const email = requireEmail(args)
    const user = await findInviter(db, { email })
    if (user === undefined) throw new CommandFailure(`No account with email ${email}. List accounts with user:list.`)
    const origin = await linkOrigin(db, config)
    out(inviteUrl(origin.publicUrl, user.invite_token))
    if (origin.note !== undefined) err(origin.note)
    if (!user.is_active) out(`Note: ${user.email} is deactivated; its invite link is refused until the account is active again.`)
    return 0
  }
}

/**
 * Links are built like the server builds them: from PUBLIC_URL when it is set here, otherwise from
 * the address the server last started with; a default address is named as such.
 */
async function linkOrigin(db: Kysely<Tables>, config: Config): Promise<{ publicUrl: string; note?: string }> {
  if (config.publicUrlSource === "PUBLIC_URL") return { publicUrl: config.publicUrl }
  const last = await serverAddress.last(db)
  if (last !== undefined) {
    return {
      publicUrl: last.publicUrl,
      note: `The address is the one the server last started with (${last.startedAt}); set PUBLIC_URL to use another.`
    }
  }
  return {
    publicUrl: config.publicUrl,
    note: `The server has not started on this database yet, so this is the default address ${config.publicUrl}; set PUBLIC_URL to the address people use.`
  }
}

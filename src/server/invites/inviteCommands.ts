import { inviteLink as inviteUrl } from "../../domain/Invitation.ts"
import { emailRule, normaliseEmail } from "../../domain/Validation.ts"
import { findUserByEmail } from "../account/usersRepo.ts"
import { type Command, requireText, UsageError } from "../cli/command.ts"

export const inviteLink: Command = {
  name: "invite:link",
  usage: "--email E",
  summary: "Print an account's invite link (new members register through it)",
  options: { email: { type: "string" } },
  async run(args, { db, config, out }) {
    const text = requireText(args, "email")
    const message = emailRule()(text)
    if (message !== undefined) throw new UsageError(`--email: ${message}`)
    const email = normaliseEmail(text)
    const user = await findUserByEmail(db, email)
    // A wrong address is a mistake in what was typed, like a malformed one: same exit code.
    if (user === undefined) throw new UsageError(`No account with email ${email}. List accounts with user:list.`)
    out(inviteUrl(config.publicUrl, user.invite_token))
    if (!user.is_active) out(`Note: ${user.email} is deactivated; its invite link is refused until the account is active again.`)
    return 0
  }
}

import { audit } from "../audit/auditFeature.ts"
import { type Command, CommandFailure, requireEmail, UsageError } from "../cli/command.ts"
import { setNoMetering } from "./playerToken.ts"

export const userMetering: Command = {
  name: "user:metering",
  usage: "--email E --on|--off",
  summary: "Meter an account's playback (--on, the default) or grant it the no-metering permission (--off), e.g. for testing streams",
  options: { email: { type: "string" }, on: { type: "boolean" }, off: { type: "boolean" } },
  async run(args, { db, out, now, operator }) {
    if ((args.on === true) === (args.off === true)) throw new UsageError("say --on or --off")
    const email = requireEmail(args)
    const user = await db.selectFrom("users").select(["id", "email"]).where("email", "=", email).executeTakeFirst()
    if (user === undefined) throw new CommandFailure(`No account with email ${email}`)
    const at = now()
    await db.transaction().execute(async (trx) => {
      await setNoMetering(trx, user.id, args.off === true)
      const detail = JSON.stringify({ metered: args.off !== true })
      await audit.record(trx, audit.operator(operator), { action: "user.metering", target: `user ${user.id} (${user.email})`, detail }, at)
    })
    out(args.off === true ? `${user.email} now plays without metering` : `${user.email}'s playback is metered`)
    return 0
  }
}

import { audit } from "../audit/auditFeature.ts"
import { type Command, CommandFailure, requireEmail, requireText, UsageError } from "../cli/command.ts"
import { addLedgerEntry, rewardBalance } from "./rewardLedger.ts"

// Enough for any goodwill gesture; a typo of a few more digits is refused rather than recorded.
const MAX_ADJUSTMENT = 10_000

export const rewardsAdjust: Command = {
  name: "rewards:adjust",
  usage: "--email E --points N (--points=-N to take back)",
  summary: "Give an account reward points by hand (N below zero takes them back), as a row of its points ledger",
  options: { email: { type: "string" }, points: { type: "string" } },
  async run(args, { db, out, now, operator }) {
    const email = requireEmail(args)
    const pointsText = requireText(args, "points").trim()
    const points = Number(pointsText)
    if (!/^-?\d+$/.test(pointsText) || points === 0 || Math.abs(points) > MAX_ADJUSTMENT) {
      throw new UsageError(`--points must be a whole number from -${MAX_ADJUSTMENT} to ${MAX_ADJUSTMENT}, not 0 (got "${pointsText}")`)
    }
    const balance = await db.transaction().execute(async (trx) => {
      const user = await trx.selectFrom("users").select("id").where("email", "=", email).executeTakeFirst()
      if (user === undefined) throw new CommandFailure(`No account with email ${email}. List accounts with user:list.`)
      const before = await rewardBalance(trx, user.id)
      if (before + points < 0) throw new CommandFailure(`${email} has ${before} points; taking ${-points} would leave fewer than none.`)
      const at = now()
      await addLedgerEntry(trx, { userId: user.id, points, reason: "adjust", at: new Date(at).toISOString() })
      await audit.record(
        trx,
        audit.operator(operator),
        {
          action: "rewards.adjust",
          target: `user ${user.id} (${email})`,
          detail: `${points > 0 ? "+" : ""}${points} points: ${before} → ${before + points}`
        },
        at
      )
      return before + points
    })
    out(`${email} now has ${balance} reward point${balance === 1 ? "" : "s"}.`)
    return 0
  }
}

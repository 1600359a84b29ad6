import { Schema } from "effect"

/** An invitation (SPEC §3): registered while rewardGiven is null, completed once it is a date. */
export class Invitation extends Schema.Class<Invitation>("Invitation")({
  newUserEmail: Schema.String,
  createdAt: Schema.String,
  rewardGiven: Schema.NullOr(Schema.String)
}) {}

/** Points an inviter earns for each invited person who completes (SPEC §9). */
export const REWARD_POINTS_PER_INVITE = 1

export const isCompleted = (invitation: Invitation): boolean => invitation.rewardGiven !== null

export const RewardData = Schema.Struct({
  rewardPoints: Schema.Number,
  pricePerRewardPoint: Schema.Number
})
export type RewardData = typeof RewardData.Type

/**
 * Points that may be redeemed: 0 up to the user's points, stopping once their value
 * would exceed the price after discount (SPEC §2).
 */
export const rewardOptions = (points: number, pricePerPoint: number, priceAfterDiscount: number): ReadonlyArray<number> => {
  const options: Array<number> = []
  for (let n = 0; n <= points; n++) {
    if (n * pricePerPoint > priceAfterDiscount) break
    options.push(n)
  }
  return options
}

export const inviteLink = (origin: string, inviteToken: string): string =>
  `${origin}/register?invite=${encodeURIComponent(inviteToken)}`

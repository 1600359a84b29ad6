import * as Schema from "effect/Schema"

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

// SPEC §2, §8: the feedback of the invite link's copy button
export const COPIED_MESSAGE = "The text is now on your clipboard"
export const COPY_FAILED_MESSAGE = "Access to clipboard failed"

// Money is reckoned in whole cents: 3 × 0.1 must equal 0.3, and a point worth exactly the price fits.
const cents = (amount: number): number => Math.round(amount * 100)

/** The monthly price after a plan's discount, a percentage (SPEC §2's "price after discount"). */
export const priceAfterDiscount = (price: number, discountPercent: number): number =>
  Math.max(0, cents(price) - Math.round((cents(price) * discountPercent) / 100)) / 100

/**
 * Points that may be redeemed: 0 up to the user's points, stopping once their value
 * would exceed the price after discount (SPEC §2).
 */
export const rewardOptions = (points: number, pricePerPoint: number, priceAfterDiscount: number): ReadonlyArray<number> => {
  const options: Array<number> = []
  for (let n = 0; n <= Math.floor(points); n++) {
    if (pointsValue(n, pricePerPoint) > cents(priceAfterDiscount)) break
    options.push(n)
  }
  return options
}

// the points' worth, rounded once: a point's price need not be whole cents ($0.125)
const pointsValue = (points: number, pricePerPoint: number): number => cents(points * pricePerPoint)

/** What the next month would cost with `points` redeemed against its discounted price. */
export const costAfterRedeeming = (priceAfterDiscount: number, points: number, pricePerPoint: number): number =>
  Math.max(0, cents(priceAfterDiscount) - pointsValue(points, pricePerPoint)) / 100

/** An amount of money as the pages write it: "$4.75", "$5", and a fraction of a cent as set: "$0.125". */
export const formatPrice = (amount: number): string => {
  const wholeCents = Math.abs(amount * 100 - cents(amount)) < 1e-9
  return new Intl.NumberFormat("en-US", {
    style: "currency",
    currency: "USD",
    minimumFractionDigits: Number.isInteger(amount) ? 0 : 2,
    maximumFractionDigits: wholeCents ? 2 : 4
  }).format(amount)
}

export const inviteLink = (origin: string, inviteToken: string): string => `${origin}/register?invite=${encodeURIComponent(inviteToken)}`

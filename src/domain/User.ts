import * as Schema from "effect/Schema"

/** The user info returned to the signed-in user (SPEC §3). */
export class UserInfo extends Schema.Class<UserInfo>("UserInfo")({
  email: Schema.String,
  username: Schema.String,
  is_staff: Schema.Boolean,
  userRewardPoints: Schema.Number,
  pricePerRewardPoint: Schema.Number,
  /** A new address asked for on /profile and not confirmed from its mailbox yet; the account keeps `email` until then. */
  pendingEmail: Schema.optionalKey(Schema.String)
}) {}

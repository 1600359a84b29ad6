import { createHash } from "node:crypto"

/**
 * The player token of a session: what the player sends as metering `token_id` and what staff see
 * in the live connections. Derived from the stored session hash, so it needs no storage of its
 * own, differs per device, dies with the session, and reveals nothing that would let anyone act
 * as the session: every telemetry call still needs the session's own Token header.
 */
export const playerTokenOf = (sessionTokenHash: string): string =>
  createHash("sha256").update(`player-token\0${sessionTokenHash}`).digest("base64url").slice(0, 16)

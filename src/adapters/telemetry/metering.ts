import { fromCallback } from "xstate"
import { type Answer, detailOf } from "../../domain/contract/answer.ts"
import { TOKEN_VALIDATION_FAILED } from "../../domain/Telemetry.ts"
import type { MeteringCommand, MeteringFact, PlayerGrant } from "../../domain/TelemetryProtocol.ts"
import type { CallApi } from "../http/http.ts"

export interface MeteringDeps {
  readonly callApi: CallApi
  /** Cache-busting value for `rnd`; not a secret. */
  readonly random?: () => string
}

export const METERING_FACTOR = 1
const UNREACHABLE = "Metering did not answer."

const defaultRandom = (): string => globalThis.crypto?.randomUUID?.() ?? `${Date.now().toString(36)}${Math.random().toString(36).slice(2)}`

/** The grant in a player-token answer, or undefined when the answer is a failure. */
export const playerGrantOf = (answer: Answer<"playerToken">): PlayerGrant | undefined =>
  answer._tag === "ok" && answer.body.success
    ? { token: answer.body.token, analytics: answer.body.analytics, noMetering: answer.body.noMetering }
    : undefined

/** Records one use of the player (SPEC §7), unless the token grants no metering. */
export async function meter(deps: MeteringDeps, grant: PlayerGrant, signal?: AbortSignal): Promise<MeteringFact> {
  if (grant.noMetering) return { type: "metering.skipped" }
  const body = { token_id: grant.token, factor: METERING_FACTOR, rnd: (deps.random ?? defaultRandom)() }
  const answer = await deps.callApi("metering", signal === undefined ? { body } : { body, signal })
  if (answer._tag === "ok" && answer.body.success) return { type: "metering.recorded" }
  if (answer._tag === "refused" && answer.status === 401) {
    return { type: "telemetry.tokenRejected", error: "token", message: TOKEN_VALIDATION_FAILED }
  }
  return { type: "metering.failed", detail: (answer._tag === "sessionEnded" ? undefined : detailOf(answer)) ?? UNREACHABLE }
}

/**
 * Meters once when started and again on each `metering.record`. Stopping it cancels a call in
 * flight; a late answer is not reported.
 */
export const createMeteringActor = (deps: MeteringDeps) =>
  fromCallback<MeteringCommand, PlayerGrant>(({ input, sendBack, receive }) => {
    const controller = new AbortController()
    const record = (): void => {
      void meter(deps, input, controller.signal).then((fact) => {
        if (!controller.signal.aborted) sendBack(fact)
      })
    }
    receive((command) => {
      if (command.type === "metering.record") record()
    })
    record()
    return () => controller.abort()
  })

import { describe, expect, it } from "vitest"
import { createActor, type AnyStateMachine, type InspectionEvent } from "xstate"
import { registrationMachine } from "../../../src/machines/account/registrationMachine.ts"
import { verifyEmailMachine } from "../../../src/machines/account/verifyEmailMachine.ts"
import { playerMachine } from "../../../src/machines/player/playerMachine.ts"
import { notProvided } from "../../../src/machines/shared/notProvided.ts"
import { bootMachine } from "../../../src/machines/shell/bootMachine.ts"
import { streamSelectionMachine } from "../../../src/machines/streams/streamSelectionMachine.ts"

/** The errors the machine's invoked actors failed with, as the machine received them. */
const actorErrors = async (machine: AnyStateMachine, input: unknown): Promise<Array<string>> => {
  const errors: Array<string> = []
  const inspect = (event: InspectionEvent) => {
    if (event.type !== "@xstate.event" || !event.event.type.startsWith("xstate.error.actor")) return
    const error = (event.event as { error?: unknown }).error
    errors.push(error instanceof Error ? error.message : String(error))
  }
  const actor = createActor(machine, { input, inspect })
  actor.subscribe({ error: () => undefined })
  actor.start()
  await new Promise((resolve) => setTimeout(resolve, 0))
  actor.stop()
  return errors
}

describe("actors a machine declares but src/app must supply", () => {
  it("fail at once, naming the actor, when they were never supplied", () => {
    expect(() => notProvided("loadStreams")()).toThrow("not provided: loadStreams")
  })

  it.each([
    ["boot", bootMachine, { token: null }, "not provided: checkMaintenance"],
    ["stream selection", streamSelectionMachine, undefined, "not provided: readPlayerChoice"],
    ["player", playerMachine, { player: 1, index: 0 }, "not provided: loadStreams"],
    ["registration", registrationMachine, { invite: "code" }, "not provided: checkInvite"],
    ["email verification", verifyEmailMachine, { token: "t" }, "not provided: verify"]
  ] as const)("%s: its first call says which actor is missing instead of answering nothing", async (_, machine, input, message) => {
    expect(await actorErrors(machine, input)).toContain(message)
  })
})

import { describe, expect, it } from "vitest"
import { type AnyActorLogic, type AnyStateMachine, createActor } from "xstate"
import { emailChangeMachine } from "../../../src/machines/account/emailChangeMachine.ts"
import { forgotPasswordMachine } from "../../../src/machines/account/forgotPasswordMachine.ts"
import { loginFormMachine } from "../../../src/machines/account/loginFormMachine.ts"
import { passwordResetMachine } from "../../../src/machines/account/passwordResetMachine.ts"
import { profileDetailsMachine } from "../../../src/machines/account/profileDetailsMachine.ts"
import { profilePasswordMachine } from "../../../src/machines/account/profilePasswordMachine.ts"
import { registrationMachine } from "../../../src/machines/account/registrationMachine.ts"
import { verifyEmailMachine } from "../../../src/machines/account/verifyEmailMachine.ts"
import { playerMachine } from "../../../src/machines/player/playerMachine.ts"
import { playerVolumeMachine } from "../../../src/machines/player/playerVolumeMachine.ts"
import { announcementMachine } from "../../../src/machines/shell/announcementMachine.ts"
import { bootMachine } from "../../../src/machines/shell/bootMachine.ts"
import { sessionMachine } from "../../../src/machines/shell/sessionMachine.ts"
import { streamRequestMachine } from "../../../src/machines/streams/streamRequestMachine.ts"
import { streamSelectionMachine } from "../../../src/machines/streams/streamSelectionMachine.ts"
import { playerTelemetryMachine } from "../../../src/machines/telemetry/playerTelemetryMachine.ts"

const machines: Record<string, AnyStateMachine> = {
  boot: bootMachine,
  session: sessionMachine,
  announcement: announcementMachine,
  loginForm: loginFormMachine,
  registration: registrationMachine,
  verifyEmail: verifyEmailMachine,
  forgotPassword: forgotPasswordMachine,
  passwordReset: passwordResetMachine,
  emailChange: emailChangeMachine,
  profileDetails: profileDetailsMachine,
  profilePassword: profilePasswordMachine,
  streamSelection: streamSelectionMachine,
  streamRequest: streamRequestMachine,
  player: playerMachine,
  playerVolume: playerVolumeMachine,
  playerTelemetry: playerTelemetryMachine
}

const isMachine = (logic: AnyActorLogic): boolean => "root" in logic && "config" in logic

/** Every actor a machine declares that does I/O, which src/app must supply: the machine's own children are real. */
const ioActors = Object.entries(machines).flatMap(([machine, logic]) =>
  Object.entries(logic.implementations.actors as Record<string, AnyActorLogic>)
    .filter(([, actor]) => !isMachine(actor))
    .map(([name, actor]) => [`${machine}.${name}`, name, actor] as const)
)

/** What the actor fails with when started as the machine declares it. */
const failureOf = async (logic: AnyActorLogic): Promise<string | undefined> => {
  let failure: string | undefined
  const actor = createActor(logic, { input: {} })
  actor.subscribe({ error: (error) => (failure = error instanceof Error ? error.message : String(error)) })
  actor.start()
  await new Promise((resolve) => setTimeout(resolve, 0))
  actor.stop()
  return failure
}

describe("actors a machine declares but src/app must supply", () => {
  it("are declared by every machine that does I/O", () => {
    expect(ioActors.length).toBeGreaterThan(25)
  })

  it.each(ioActors)("%s fails at once with 'not provided: <name>' instead of answering nothing", async (_, name, logic) => {
    expect(await failureOf(logic)).toBe(`not provided: ${name}`)
  })
})

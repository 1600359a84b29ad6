import { createMachine } from "xstate"
import { createTestModel } from "xstate/graph"

/**
 * Arriving late at a programme, and moving about the time-shift window, as a test model: what the
 * viewer sees under and on the TV player, and the steps between. `media.*` steps are the stream's
 * doing, `user.*` the viewer's. The test drives the real PlayerView along every path, on a channel
 * whose programme ("Cup Final") began 45 minutes ago, after "News", both inside its four hours.
 */
export const startOverModel = createMachine({
  id: "startOverModel",
  initial: "asked",
  states: {
    asked: {
      description: "under the picture: start the programme from the beginning or watch live?",
      on: {
        "user.fromBeginning": { target: "atProgrammeStart", description: "press From the beginning" },
        "user.watchLive": { target: "live", description: "press Watch live" },
        "user.escape": { target: "live", description: "press Escape" }
      }
    },
    live: {
      description: "no question; LIVE with the time of day; nothing to catch up",
      on: { "user.clickProgramme": { target: "atProgrammeStart", description: "click the programme's mark on the seek bar" } }
    },
    atProgrammeStart: {
      description: "the picture at the programme's start: the seek bar reads its time, how far behind live, and its title",
      on: {
        "user.previousProgramme": { target: "atPreviousProgramme", description: "press Page Up on the seek bar" },
        "media.playsOn": { target: "intoProgramme", description: "ten minutes of it play" },
        "user.catchUp": { target: "catchingUp", description: "press Catch up" },
        "user.goLive": { target: "live", description: "press Go to live" }
      }
    },
    atPreviousProgramme: {
      description: "the picture at the start of the programme before",
      on: { "user.nextProgramme": { target: "atProgrammeStart", description: "press Page Down on the seek bar" } }
    },
    intoProgramme: {
      description: "ten minutes into the programme",
      on: { "user.startOfProgramme": { target: "atProgrammeStart", description: "press Start of programme" } }
    },
    catchingUp: {
      description: "Catch up is on: the picture runs a little faster",
      on: {
        "user.catchUp": { target: "atProgrammeStart", description: "press Catch up again" },
        "media.reachesLive": { target: "live", description: "the picture reaches the live edge" }
      }
    }
  }
})

// The shortest paths reach every screen; the round trips take the steps no shortest path needs.
const roundTrips = [
  ["user.escape", "user.clickProgramme"],
  ["user.fromBeginning", "user.previousProgramme", "user.nextProgramme"],
  ["user.fromBeginning", "media.playsOn", "user.startOfProgramme"],
  ["user.fromBeginning", "user.catchUp", "user.catchUp"],
  ["user.fromBeginning", "user.catchUp", "media.reachesLive"],
  ["user.fromBeginning", "user.goLive"]
]

/** Every path the tests walk: the shortest path to each screen, then the round trips. */
export const startOverPaths = () => {
  const model = createTestModel(startOverModel, { serializeTransition: () => "" })
  return [...model.getShortestPaths(), ...roundTrips.flatMap((types) => model.getPathsFromEvents(types.map((type) => ({ type }))))]
}

import { createMachine, stateIn } from "xstate"
import { createTestModel } from "xstate/graph"

const barShown = stateIn({ bar: "shown" })
const playing = stateIn({ playback: "playing" })
const failed = stateIn({ playback: "failed" })

/**
 * What a viewer sees of the player's controls, as a test model: no invoke or delay, only the
 * screens and the steps between them. `media.*` steps are the stream's doing, `user.*` the
 * viewer's. Buttons on the control bar are only pressed while the bar shows. The test drives the
 * real PlayerView along every path.
 */
export const playerModel = createMachine({
  id: "playerModel",
  type: "parallel",
  states: {
    playback: {
      initial: "loading",
      states: {
        loading: {
          description: "a spinner while the stream loads",
          on: {
            "media.starts": { target: "playing", description: "the stream starts" },
            "media.fails": { target: "failed", description: "the stream fails" }
          }
        },
        playing: {
          description: "the picture runs; the bar offers Pause",
          on: {
            "user.pause": { guard: barShown, target: "paused", description: "press Pause" },
            "media.fails": { target: "failed", description: "the stream fails" }
          }
        },
        paused: {
          description: "the picture stands; the bar and a big button offer Play",
          on: { "user.play": { target: "playing", description: "press Play" } }
        },
        failed: {
          description: "an error box with the message and its code; Play is disabled",
          // playing again, from the box or by choosing the same stream, clears it
          on: {
            "user.retry": { target: "loading", description: "press Try again" },
            "user.reselect": { target: "loading", description: "choose the same stream in the list" }
          }
        }
      }
    },
    bar: {
      initial: "shown",
      states: {
        shown: {
          description: "the control bar is on screen",
          on: { "user.leaves": { guard: playing, target: "hidden", description: "move the pointer off the video for 2 s" } }
        },
        hidden: {
          description: "2 s after the pointer left the playing video, the bar is gone",
          on: {
            "user.hovers": { target: "shown", description: "move the pointer over the video" },
            "media.fails": { target: "shown", description: "the stream fails" }
          }
        }
      }
    },
    sound: {
      initial: "audible",
      states: {
        audible: {
          description: "the bar offers Mute",
          on: { "user.mute": { guard: barShown, target: "muted", description: "press Mute" } }
        },
        muted: {
          description: "the bar offers Unmute and no lit volume tick",
          on: { "user.unmute": { guard: barShown, target: "audible", description: "press Unmute" } }
        }
      }
    },
    screen: {
      initial: "normal",
      states: {
        normal: {
          description: "the bar offers Fullscreen; the title is on the page only",
          on: { "user.enterFullscreen": { guard: barShown, target: "fullscreen", description: "press Fullscreen" } }
        },
        fullscreen: {
          description: "the bar offers Exit fullscreen; the title shows over the picture",
          on: { "user.exitFullscreen": { guard: barShown, target: "normal", description: "press Exit fullscreen" } }
        }
      }
    },
    live: {
      initial: "atEdge",
      states: {
        atEdge: {
          description: "LIVE: within 10 s of the live edge",
          on: { "media.fallsBehind": { guard: playing, target: "behind", description: "the playhead falls behind the live edge" } }
        },
        behind: {
          description: "further behind: the bar offers Go to live",
          on: {
            "user.goLive": { guard: barShown, target: "atEdge", description: "press Go to live" },
            // loading the stream again starts at the live edge
            "user.retry": { guard: failed, target: "atEdge", description: "press Try again" },
            "user.reselect": { guard: failed, target: "atEdge", description: "choose the same stream in the list" }
          }
        }
      }
    }
  }
})

// A state is what the viewer sees: the steps that led there do not matter to the screen. The
// shortest paths reach every state (checking each one on the way); the round trips take the steps
// back that no shortest path needs: hovering again, leaving fullscreen, going to live, playing
// again after an error.
const roundTrips = [
  ["media.starts", "user.pause", "user.play"],
  ["user.mute", "user.unmute"],
  ["user.enterFullscreen", "user.exitFullscreen"],
  ["media.starts", "user.leaves", "user.hovers"],
  ["media.starts", "media.fallsBehind", "user.goLive"],
  ["media.starts", "media.fails", "user.retry", "media.starts"],
  ["media.starts", "media.fallsBehind", "media.fails", "user.reselect", "media.starts"]
]

/** Every path the tests walk: the shortest path to each state, then the round trips. */
export const playerPaths = () => {
  const model = createTestModel(playerModel, { serializeTransition: () => "" })
  return [...model.getShortestPaths(), ...roundTrips.flatMap((types) => model.getPathsFromEvents(types.map((type) => ({ type }))))]
}

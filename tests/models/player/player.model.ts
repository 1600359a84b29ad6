import { createMachine, stateIn } from "xstate"

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
          on: { "media.starts": "playing", "media.fails": "failed" }
        },
        playing: {
          description: "the picture runs; the bar offers Pause",
          on: { "user.pause": { guard: barShown, target: "paused" }, "media.fails": "failed" }
        },
        paused: {
          description: "the picture stands; the bar and a big button offer Play",
          on: { "user.play": "playing" }
        },
        failed: {
          description: "an error box with the message and its code; Play is disabled",
          // playing again, from the box or by choosing the same stream, clears it
          on: { "user.retry": "loading", "user.reselect": "loading" }
        }
      }
    },
    bar: {
      initial: "shown",
      states: {
        shown: {
          description: "the control bar is on screen",
          on: { "user.leaves": { guard: playing, target: "hidden" } }
        },
        hidden: {
          description: "2 s after the pointer left the playing video, the bar is gone",
          on: { "user.hovers": "shown", "media.fails": "shown" }
        }
      }
    },
    sound: {
      initial: "audible",
      states: {
        audible: { description: "the bar offers Mute", on: { "user.mute": { guard: barShown, target: "muted" } } },
        muted: {
          description: "the bar offers Unmute and no lit volume tick",
          on: { "user.unmute": { guard: barShown, target: "audible" } }
        }
      }
    },
    screen: {
      initial: "normal",
      states: {
        normal: {
          description: "the bar offers Fullscreen; the title is on the page only",
          on: { "user.enterFullscreen": { guard: barShown, target: "fullscreen" } }
        },
        fullscreen: {
          description: "the bar offers Exit fullscreen; the title shows over the picture",
          on: { "user.exitFullscreen": { guard: barShown, target: "normal" } }
        }
      }
    },
    live: {
      initial: "atEdge",
      states: {
        atEdge: {
          description: "LIVE: within 10 s of the live edge",
          on: { "media.fallsBehind": { guard: playing, target: "behind" } }
        },
        behind: {
          description: "further behind: the bar offers Go to live",
          on: {
            "user.goLive": { guard: barShown, target: "atEdge" },
            // loading the stream again starts at the live edge
            "user.retry": { guard: failed, target: "atEdge" },
            "user.reselect": { guard: failed, target: "atEdge" }
          }
        }
      }
    }
  }
})

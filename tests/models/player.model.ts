import { createMachine } from "xstate"

/**
 * What a viewer sees of the player's controls, as a test model: no invoke or delay, only the
 * screens and the steps between them. `media.*` steps are the stream's doing, `user.*` the
 * viewer's. The test drives the real PlayerView along every path.
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
          on: { "user.pause": "paused", "media.fails": "failed" }
        },
        paused: {
          description: "the picture stands; the bar and a big button offer Play",
          on: { "user.play": "playing" }
        },
        failed: {
          description: "an error box with the message and its code; Play is disabled",
          on: { "user.retry": "loading" }
        }
      }
    },
    sound: {
      initial: "audible",
      states: {
        audible: { description: "the bar offers Mute", on: { "user.mute": "muted" } },
        muted: { description: "the bar offers Unmute and no lit volume tick", on: { "user.unmute": "audible" } }
      }
    }
  }
})

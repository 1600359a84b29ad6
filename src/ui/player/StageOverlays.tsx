import { useSelector } from "@xstate/react"
import { Link } from "react-router-dom"
import type { ActorRefFrom } from "xstate"
import { PURCHASE, STREAM_MAINTENANCE } from "../../domain/Maintenance.ts"
import { reportProblemPath } from "../../domain/Ticket.ts"
import type { playerMachine } from "../../machines/player/playerMachine.ts"
import {
  selectCanTogglePlay,
  selectIsBuffering,
  selectIsEnded,
  selectIsPaused,
  selectPlaybackError
} from "../../machines/player/playerPlaybackMachine.ts"
import {
  selectChrome,
  selectCurrentStream,
  selectPlayback,
  selectPlayerChoice,
  selectUnavailability
} from "../../machines/player/playerSelectors.ts"
import { button } from "../shared/controls.css.ts"
import { Icon } from "../shared/Icon.tsx"
import * as status from "../shared/StatusView.css.ts"
import { useSelectors } from "../shared/useSelectors.ts"
import * as styles from "./PlayerStage.css.ts"

type PlayerActor = ActorRefFrom<typeof playerMachine>

/** Whatever covers the picture: loading, the big play button, the endscreen, an error, a notice. */
export const StageOverlays = ({ actor }: { readonly actor: PlayerActor }) => {
  const { chrome, unavailable, playback } = useSelectors(actor, {
    chrome: selectChrome,
    unavailable: selectUnavailability,
    playback: selectPlayback
  })
  const { error, buffering, paused, ended, canToggle } = useSelectors(playback, {
    error: selectPlaybackError,
    buffering: selectIsBuffering,
    paused: selectIsPaused,
    ended: selectIsEnded,
    canToggle: selectCanTogglePlay
  })
  const stream = useSelector(actor, selectCurrentStream)
  const player = useSelector(actor, selectPlayerChoice)

  if (unavailable !== null) {
    return (
      <div className={styles.overlay}>
        <div className={styles.box} role="status">
          <p className={styles.boxTitle}>{unavailable === "maintenance" ? STREAM_MAINTENANCE.title : PURCHASE.title}</p>
          {unavailable === "maintenance" ? (
            <p className={styles.boxText} lang={STREAM_MAINTENANCE.lang}>
              {STREAM_MAINTENANCE.text}
            </p>
          ) : (
            <Link className={button({ tone: "primary" })} to="/subscription">
              {PURCHASE.button}
            </Link>
          )}
        </div>
      </div>
    )
  }
  if (error !== null) {
    return (
      <div className={styles.overlay}>
        <div className={styles.errorBox} role="alert">
          <p className={styles.boxTitle}>{error.message}</p>
          {error.code === null && stream === undefined ? null : (
            <p className={styles.boxText}>
              {error.code === null ? null : <span>{`Error code ${error.code}`}</span>}
              {error.code === null || stream === undefined ? null : " · "}
              {stream === undefined ? null : (
                <Link to={reportProblemPath({ stream: stream.title, player, errorCode: error.code ?? 0, browser: navigator.userAgent })}>
                  Report a problem
                </Link>
              )}
            </p>
          )}
          <button type="button" className={button({ tone: "primary" })} onClick={() => actor.send({ type: "player.retry" })}>
            Try again
          </button>
        </div>
      </div>
    )
  }
  if (ended) {
    return (
      <div className={styles.overlay}>
        <div className={styles.box}>
          <p className={styles.boxTitle}>The video has ended</p>
          <button type="button" className={button({ tone: "primary" })} onClick={() => actor.send({ type: "player.togglePlay" })}>
            <Icon name="replay" size={18} />
            Watch again
          </button>
        </div>
      </div>
    )
  }
  if (buffering) {
    return (
      <div className={styles.overlay} role="status" aria-label="Loading stream">
        <div className={status.spinner} />
      </div>
    )
  }
  if (paused && canToggle && chrome.controls) {
    return (
      <div className={styles.overlay}>
        <button
          type="button"
          className={styles.bigPlay[chrome.playShape]}
          aria-label="Play video"
          onClick={() => actor.send({ type: "player.togglePlay" })}
        >
          <Icon name="play" size={32} />
        </button>
      </div>
    )
  }
  return null
}

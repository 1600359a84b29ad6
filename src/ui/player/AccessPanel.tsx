import { useSelector } from "@xstate/react"
import type { ActorRefFrom } from "xstate"
import { END_OLDEST_BUTTON, STREAM_LIMIT_TITLE, STREAM_STOPPED, streamLimitMessage, WATCH_AGAIN_BUTTON } from "../../domain/Connection.ts"
import { type AccessView, selectAccess } from "../../machines/player/playerAccessMachine.ts"
import type { playerMachine } from "../../machines/player/playerMachine.ts"
import { selectAccessActor, selectChannelNotice } from "../../machines/player/playerSelectors.ts"
import { button } from "../shared/controls.css.ts"
import * as status from "../shared/StatusView.css.ts"
import * as styles from "./PlayerStage.css.ts"

type PlayerActor = ActorRefFrom<typeof playerMachine>

const time = (iso: string): string => new Date(iso).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" })

const Limit = ({ actor, view }: { readonly actor: PlayerActor; readonly view: Extract<AccessView, { kind: "limit" }> }) => (
  <div className={styles.accessBox} role="alert">
    <p className={styles.boxTitle}>{STREAM_LIMIT_TITLE}</p>
    <p className={styles.boxText}>{streamLimitMessage(view.maxStreams)}</p>
    <ul className={styles.boxList}>
      {view.playing.map((other) => (
        <li key={other.id}>{`${other.stream} on ${other.device}, network ${other.network}, since ${time(other.since)}`}</li>
      ))}
    </ul>
    <button
      type="button"
      className={button({ tone: "primary" })}
      disabled={view.ending || view.playing.length === 0}
      onClick={() => actor.send({ type: "access.endOldest" })}
    >
      {END_OLDEST_BUTTON}
    </button>
  </div>
)

/** Over the picture while the server is asked why our origin refused the stream. */
export const AccessCheck = ({ actor }: { readonly actor: PlayerActor }) => {
  const access = useSelector(actor, selectAccessActor)
  const view = useSelector(access, selectAccess)
  return view?.kind !== "checking" ? null : (
    <div className={styles.overlay} role="status" aria-label="Checking access to the stream">
      <div className={status.spinner} />
    </div>
  )
}

/** Over the picture while our origin's feed of the channel starts or is away: the player asks again by itself. */
export const ChannelNotice = ({ actor }: { readonly actor: PlayerActor }) => {
  const notice = useSelector(actor, selectChannelNotice)
  return notice === null ? null : (
    <div className={styles.overlay} role="status">
      <div className={styles.box}>
        <div className={status.spinner} aria-hidden />
        <p className={styles.boxTitle}>{notice}</p>
      </div>
    </div>
  )
}

/**
 * Under the picture when our origin refused the stream: why, in plain words, and what can be
 * done. It sits below the player rather than over it, so a phone's small picture never hides it.
 */
export const AccessPanel = ({ actor }: { readonly actor: PlayerActor }) => {
  const access = useSelector(actor, selectAccessActor)
  const view = useSelector(access, selectAccess)
  if (view === null || view.kind === "checking") return null
  if (view.kind === "limit") return <Limit actor={actor} view={view} />
  const stopped = view.kind === "ended" ? STREAM_STOPPED[view.stop ?? "replaced"] : { title: view.message, text: "" }
  return (
    <div className={styles.accessBox} role="alert">
      <p className={styles.boxTitle}>{stopped.title}</p>
      {stopped.text === "" ? null : <p className={styles.boxText}>{stopped.text}</p>}
      {view.kind === "ended" && view.stop === "signedOut" ? null : (
        <button type="button" className={button({ tone: "primary" })} onClick={() => actor.send({ type: "access.retry" })}>
          {view.kind === "ended" ? WATCH_AGAIN_BUTTON : "Try again"}
        </button>
      )}
    </div>
  )
}

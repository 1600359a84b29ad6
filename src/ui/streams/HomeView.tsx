import { Link } from "react-router-dom"
import { TV_PLAYER } from "../../domain/playerChoice.ts"
import {
  selectIsLoading,
  selectLoadError,
  selectModal,
  selectNowNext,
  selectPlayerChoice,
  selectStreamRequest,
  selectStreams,
  streamSelectionMachine
} from "../../machines/streams/streamSelectionMachine.ts"
import { button, visuallyHidden } from "../shared/controls.css.ts"
import { Icon } from "../shared/Icon.tsx"
import { RetryNotice } from "../shared/RetryNotice.tsx"
import { usePageActor } from "../shared/ServicesContext.tsx"
import { empty, skeleton } from "../shared/surfaces.css.ts"
import { useSelectors } from "../shared/useSelectors.ts"
import * as styles from "./HomeView.css.ts"
import { StreamCard } from "./StreamCard.tsx"
import { StreamModals } from "./StreamModals.tsx"

const SKELETONS = Array.from({ length: 10 }, (_, index) => index)

export const HomeView = () => {
  const selection = usePageActor(streamSelectionMachine)
  const { streams, player, loading, error, modal, request, nowNext } = useSelectors(selection, {
    streams: selectStreams,
    player: selectPlayerChoice,
    loading: selectIsLoading,
    error: selectLoadError,
    modal: selectModal,
    request: selectStreamRequest,
    nowNext: selectNowNext
  })

  return (
    <>
      <div className={styles.toolbar}>
        <div>
          <h1 className={styles.heading}>Live streams</h1>
          <p id="player-choice" className={styles.subheading} aria-live="polite">
            Playing in the {player === TV_PLAYER ? "TV player" : "low-latency player"}
          </p>
        </div>
        <div className={styles.actions}>
          <button
            type="button"
            className={`${button({ tone: "secondary" })} ${styles.actionButton}`}
            aria-describedby="player-choice"
            onClick={() => selection.send({ type: "player.toggle" })}
          >
            <Icon name="swap" size={18} />
            Switch Stream Player
          </button>
          <button
            type="button"
            className={`${button({ tone: "primary" })} ${styles.actionButton}`}
            onClick={() => selection.send({ type: "request.open" })}
          >
            <Icon name="plus" size={18} />
            Request a stream
          </button>
          <Link to="/support" className={styles.helpLink} aria-label="Help" title="Help">
            <Icon name="help" />
          </Link>
        </div>
      </div>

      {loading ? (
        <div role="status">
          <span className={visuallyHidden}>Loading streams…</span>
          <ul className={styles.grid} aria-hidden="true">
            {SKELETONS.map((index) => (
              <li key={index} className={skeleton({ shape: "card" })} />
            ))}
          </ul>
        </div>
      ) : error !== null ? (
        <RetryNotice message={error} onRetry={() => selection.send({ type: "streams.retry" })} />
      ) : streams.length === 0 ? (
        <p className={empty()}>No streams are available right now. Please check back soon.</p>
      ) : (
        <ul className={styles.grid} aria-label="Streams">
          {streams.map((stream, index) => (
            <li key={stream.id}>
              <StreamCard
                stream={stream}
                player={player}
                nowNext={nowNext}
                onChoose={() => selection.send({ type: "stream.choose", index })}
              />
            </li>
          ))}
        </ul>
      )}

      <StreamModals
        modal={modal}
        request={request}
        onClose={() => selection.send({ type: "modal.close" })}
        onViewPlans={() => selection.send({ type: "plans.view" })}
      />
    </>
  )
}

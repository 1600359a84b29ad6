import { useSelector } from "@xstate/react"
import { Link, useLocation, useSearchParams } from "react-router-dom"
import { LOW_LATENCY_PLAYER, playerPath, TV_PLAYER } from "../../domain/playerChoice.ts"
import { parseStreamIndex } from "../../domain/playerRoute.ts"
import type { PlayerChoice, Stream } from "../../domain/Stream.ts"
import { readPlayerStart } from "../../domain/Timeshift.ts"
import { selectStopTitle } from "../../machines/player/playerAccessMachine.ts"
import { playerMachine } from "../../machines/player/playerMachine.ts"
import { parseUiMask } from "../../machines/player/playerMetadata.ts"
import { selectPlaybackError } from "../../machines/player/playerPlaybackMachine.ts"
import {
  selectAccessActor,
  selectChrome,
  selectCurrentStream,
  selectIndex,
  selectIsEmpty,
  selectIsReady,
  selectIsStopped,
  selectListError,
  selectMetadata,
  selectNowNext,
  selectPlayback,
  selectStreams,
  selectSwitchSearch,
  selectUnavailability
} from "../../machines/player/playerSelectors.ts"
import { selectSettings } from "../../machines/shell/bootMachine.ts"
import { button, visuallyHidden } from "../shared/controls.css.ts"
import { LoadingView } from "../shared/LoadingView.tsx"
import { NowNext, useProgrammes } from "../shared/NowNext.tsx"
import { usePageActor, useServices } from "../shared/ServicesContext.tsx"
import { StatusView } from "../shared/StatusView.tsx"
import { muted } from "../shared/surfaces.css.ts"
import { useSelectors } from "../shared/useSelectors.ts"
import { PageTitle } from "../shell/PageTitle.tsx"
import { AccessPanel } from "./AccessPanel.tsx"
import { PlayerStage } from "./PlayerStage.tsx"
import * as styles from "./PlayerView.css.ts"
import { StartOverPrompt } from "./StartOverPrompt.tsx"
import { StreamList } from "./StreamList.tsx"

const playerName = (player: PlayerChoice): string => (player === TV_PLAYER ? "TV player" : "Low-latency player")
const tvTags = (stream: Stream): string => stream.tags
const lowLatencyTags = (stream: Stream): string => stream.tags_sldp

/**
 * `/player` and `/playersldp`. The two routes render the same view, so React would keep one page
 * machine across a switch and play on with the first player's source: each player gets its own.
 */
export const PlayerView = ({ player }: { readonly player: PlayerChoice }) => <PlayerPage key={player} player={player} />

/**
 * `?default=N` (and `?ui=`, `?stream=ID`, `?from=ISO`) are read once; later selections rewrite
 * `default` and keep the rest of the query, which the link to the other player carries along.
 */
const PlayerPage = ({ player }: { readonly player: PlayerChoice }) => {
  const [params] = useSearchParams()
  const { search } = useLocation()
  const { timeshiftHours } = useSelector(useServices().boot, selectSettings)
  const start = readPlayerStart(search)
  const actor = usePageActor(playerMachine, {
    input: {
      player,
      index: parseStreamIndex(params.get("default")),
      search,
      ui: parseUiMask(params.get("ui")),
      timeshiftHours,
      ...(start.streamId === undefined ? {} : { streamId: start.streamId }),
      ...(start.from === undefined ? {} : { startAt: start.from })
    }
  })
  const { ready, empty, listError, streams, index, stream } = useSelectors(actor, {
    ready: selectIsReady,
    empty: selectIsEmpty,
    listError: selectListError,
    streams: selectStreams,
    index: selectIndex,
    stream: selectCurrentStream
  })
  const metadata = useSelector(actor, (snapshot) => selectMetadata(snapshot))
  const { unavailable, stopped, query, chrome } = useSelectors(actor, {
    unavailable: selectUnavailability,
    stopped: selectIsStopped,
    query: selectSwitchSearch,
    chrome: selectChrome
  })
  const playbackError = useSelector(useSelector(actor, selectPlayback), selectPlaybackError)
  const stopTitle = useSelector(useSelector(actor, selectAccessActor), selectStopTitle)
  const nowNext = useSelector(actor, selectNowNext)
  const programmes = useProgrammes(nowNext, stream?.id)

  // the tab says what plays, as the page's heading does
  const pageTitle = <PageTitle title={stream?.title ?? playerName(player)} />
  if (listError !== null || empty) {
    return (
      <>
        {pageTitle}
        <StatusView title={empty ? "No streams yet" : "Something went wrong"} role={empty ? "status" : "alert"}>
          <p className={muted}>{listError ?? "No streams are available right now. Please check back soon."}</p>
          <button type="button" className={button({ tone: "primary" })} onClick={() => actor.send({ type: "streams.retry" })}>
            Try again
          </button>
        </StatusView>
      </>
    )
  }
  if (!ready) {
    return (
      <>
        {pageTitle}
        <LoadingView placement="inline" />
      </>
    )
  }

  const other: PlayerChoice = player === TV_PLAYER ? LOW_LATENCY_PLAYER : TV_PLAYER
  const title = stream?.title ?? "Player"
  return (
    <div className={styles.page}>
      {pageTitle}
      <section className={styles.stage} aria-labelledby="player-title">
        <PlayerStage actor={actor} showLatency={player === LOW_LATENCY_PLAYER} />
        <StartOverPrompt actor={actor} />
        <AccessPanel actor={actor} />
        <div className={styles.meta}>
          <div className={styles.text}>
            <h1 id="player-title" className={chrome.title ? styles.title : visuallyHidden}>
              {title}
            </h1>
            {chrome.header ? <p className={styles.playerName}>{playerName(player)}</p> : null}
            {chrome.description && metadata !== null && metadata.description !== "" ? (
              <p className={styles.description} title={metadata.description}>
                {metadata.description}
              </p>
            ) : null}
            {programmes === null ? null : <NowNext programmes={programmes} layout="roomy" />}
          </div>
          <Link className={button({ tone: "secondary" })} to={{ pathname: playerPath(other), search: query }}>
            {other === TV_PLAYER ? "Switch to TV player" : "Switch to low-latency player"}
          </Link>
        </div>
      </section>
      <StreamList
        streams={streams}
        current={index}
        currentLabel={stopTitle ?? (unavailable === null && playbackError === null && !stopped ? "Now playing" : "Selected")}
        tagsOf={player === TV_PLAYER ? tvTags : lowLatencyTags}
        nowNext={nowNext}
        onSelect={(next) => actor.send({ type: "player.select", index: next })}
      />
    </div>
  )
}

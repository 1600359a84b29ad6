import { useSelector } from "@xstate/react"
import type { ActorRefFrom } from "xstate"
import type { playerMachine } from "../../machines/player/playerMachine.ts"
import { selectStartOver } from "../../machines/player/playerSelectors.ts"
import { selectGuideTime, selectStartMissed, selectStartOverProgramme } from "../../machines/player/playerStartOverMachine.ts"
import { button } from "../shared/controls.css.ts"
import { Modal } from "../shared/Modal.tsx"
import { spanText, wallClock } from "./dvrFormat.ts"
import * as styles from "./PlayerStage.css.ts"

type PlayerActor = ActorRefFrom<typeof playerMachine>

export const START_OVER_TITLE = "Start from the beginning or watch live?"

/**
 * Asked once on arriving late: the programme began a while ago. "From the beginning" plays it from
 * its start; "Watch live" (Escape too) plays live. The picture waits meanwhile.
 */
export const StartOverPrompt = ({ actor }: { readonly actor: PlayerActor }) => {
  const startOver = useSelector(actor, selectStartOver)
  const programme = useSelector(startOver, selectStartOverProgramme)
  const now = useSelector(startOver, selectGuideTime)
  const start = programme === null ? null : Date.parse(programme.StartTime)
  return (
    <Modal
      open={programme !== null}
      title={START_OVER_TITLE}
      description={
        programme === null || start === null
          ? ""
          : `${programme.Title} began at ${wallClock(start)}, ${spanText(Math.max(0, now - start))} ago.`
      }
      onClose={() => actor.send({ type: "startOver.watchLive" })}
      actions={
        <>
          <button type="button" className={button({ tone: "secondary" })} onClick={() => actor.send({ type: "startOver.watchLive" })}>
            Watch live
          </button>
          <button type="button" className={button({ tone: "primary" })} onClick={() => actor.send({ type: "startOver.begin" })}>
            {start === null ? "From the beginning" : `From the beginning (${wallClock(start)})`}
          </button>
        </>
      }
    />
  )
}

/** Over the picture for a few seconds when a link's moment was outside the window and it plays live instead. */
export const StartMissedNotice = ({ actor }: { readonly actor: PlayerActor }) => {
  const notice = useSelector(useSelector(actor, selectStartOver), selectStartMissed)
  return notice === null ? null : (
    <div className={styles.notice} role="status">
      {notice}
    </div>
  )
}

import { useSelector } from "@xstate/react"
import { lazy, Suspense } from "react"
import type { ActorRefFrom } from "xstate"
import type { playerMachine } from "../../machines/player/playerMachine.ts"
import { selectStartOver } from "../../machines/player/playerSelectors.ts"
import { selectGuideTime, selectStartMissed, selectStartOverProgramme } from "../../machines/player/playerStartOverMachine.ts"
import { visuallyHidden } from "../shared/controls.css.ts"
import { spanText, wallClock } from "./dvrFormat.ts"
import * as styles from "./PlayerStage.css.ts"

type PlayerActor = ActorRefFrom<typeof playerMachine>

/** The question, with when the programme began: "Start from the beginning (kick-off 20:00) or watch live?" */
export const startOverTitle = (start: number): string => `Start from the beginning (kick-off ${wallClock(start)}) or watch live?`

// Radix's dialog is loaded the first time the question is asked, not with every player page.
const StartOverDialog = lazy(() => import("./StartOverDialog.tsx").then(({ StartOverDialog: Dialog }) => ({ default: Dialog })))

/** The player the answer hands the keyboard back to. */
const playerFrame = (): HTMLElement | null => document.querySelector<HTMLElement>("[aria-label='Video player']")

/**
 * Asked once on arriving late: the programme began a while ago. "From the beginning" plays it from
 * its start; "Watch live" (Escape too) plays on live.
 */
export const StartOverPrompt = ({ actor }: { readonly actor: PlayerActor }) => {
  const startOver = useSelector(actor, selectStartOver)
  const programme = useSelector(startOver, selectStartOverProgramme)
  const now = useSelector(startOver, selectGuideTime)
  const start = programme === null ? Number.NaN : Date.parse(programme.StartTime)
  const description =
    programme === null ? "" : `${programme.Title} began at ${wallClock(start)}, ${spanText(Math.max(0, now - start))} ago.`
  return (
    <>
      {/* said as it opens, wherever the keyboard is: the dialog takes focus only from nothing */}
      <p className={visuallyHidden} role="status">
        {programme === null ? "" : `${startOverTitle(start)} ${description}`}
      </p>
      {programme === null ? null : (
        <Suspense fallback={null}>
          <StartOverDialog
            title={startOverTitle(start)}
            description={description}
            beginLabel={`From the beginning (${wallClock(start)})`}
            onBegin={() => actor.send({ type: "startOver.begin" })}
            onLive={() => actor.send({ type: "startOver.watchLive" })}
            player={playerFrame}
          />
        </Suspense>
      )}
    </>
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

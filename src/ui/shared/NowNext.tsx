import { useSelector } from "@xstate/react"
import { type NowNextActor, selectProgrammes } from "../../machines/streams/nowNextMachine.ts"
import { clockTime, type Programmes, sameProgrammes } from "../../machines/streams/nowNextProgrammes.ts"
import * as styles from "./NowNext.css.ts"

/** What a stream shows now and next; it re-renders only when that changes, not on every tick. */
export const useProgrammes = (nowNext: NowNextActor | undefined, streamId: number | undefined): Programmes | null =>
  useSelector(nowNext, (snapshot) => (streamId === undefined ? null : selectProgrammes(snapshot, streamId)), sameProgrammes)

interface NowNextProps {
  readonly programmes: Programmes
  /** for the control it describes */
  readonly id?: string
  /** `compact` in cards and lists; `roomy` under the player, with subtitles */
  readonly layout: "compact" | "roomy"
}

/** The programme on now, how far through it is, and what follows at what time. */
export const NowNext = ({ programmes: { now, next }, id, layout }: NowNextProps) => (
  <div id={id} className={styles.root({ layout })}>
    {now === null ? null : (
      <>
        <p className={styles.line({ layout })}>
          <span className={styles.nowLabel}>Now</span> <span className={styles.programme}>{now.title}</span>
          {layout === "roomy" && now.subtitle !== "" ? <span className={styles.subtitle}>{` · ${now.subtitle}`}</span> : null}
        </p>
        <progress className={styles.bar({ layout })} max={100} value={now.percent} aria-label={`Live, ${now.percent}% through`} />
      </>
    )}
    {next === null ? null : (
      <p className={styles.line({ layout })}>
        <span className={styles.label}>Next</span>{" "}
        <time className={styles.time} dateTime={next.start}>
          {clockTime(next.start)}
        </time>{" "}
        <span className={styles.programme}>{next.title}</span>
        {layout === "roomy" && next.subtitle !== "" ? <span className={styles.subtitle}>{` · ${next.subtitle}`}</span> : null}
      </p>
    )}
  </div>
)

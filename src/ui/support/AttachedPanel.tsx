import { mediaErrorMessage } from "../../domain/MediaError.ts"
import { type PlayerContext, playerLabel } from "../../domain/Ticket.ts"
import { button } from "../shared/controls.css.ts"
import { type Detail, DetailList } from "../shared/DetailList.tsx"
import { Icon } from "../shared/Icon.tsx"
import * as surfaces from "../shared/surfaces.css.ts"
import * as styles from "./ContactView.css.ts"

/** The error as people read it: its code and what the code means; 0 is an error without a media code. */
export const errorText = (code: number): string => (code === 0 ? "No error code" : `${mediaErrorMessage(code)} (code ${code})`)

/** What a 'Report a problem' link attaches, as the viewer and then staff see it. */
export const playerContextDetails = (context: PlayerContext): ReadonlyArray<Detail> => [
  { term: "Stream", definition: context.stream },
  { term: "Player", definition: playerLabel(context.player) },
  { term: "Error", definition: errorText(context.errorCode) },
  { term: "Browser", definition: context.browser === "" ? "Unknown" : context.browser }
]

interface AttachedPanelProps {
  readonly context: PlayerContext
  readonly onRemove: () => void
}

/** What a 'Report a problem' link brought along, shown before it is sent, and removable. */
export const AttachedPanel = ({ context, onRemove }: AttachedPanelProps) => (
  <section className={styles.tile({ tone: "info" })} aria-labelledby="attached-title">
    <div className={styles.attachedHeader}>
      <h3 id="attached-title" className={styles.attachedTitle}>
        <Icon name="info" size={18} />
        Attached
      </h3>
      <button type="button" className={button({ tone: "ghost" })} aria-label="Remove the attached player details" onClick={onRemove}>
        <Icon name="close" size={16} />
        Remove
      </button>
    </div>
    <p className={surfaces.muted}>
      These player details are sent with your ticket, so we can see what went wrong. Remove them if you would rather not share them.
    </p>
    <DetailList details={playerContextDetails(context)} size="small" />
  </section>
)

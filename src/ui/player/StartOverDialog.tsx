import * as Dialog from "@radix-ui/react-dialog"
import { button } from "../shared/controls.css.ts"
import * as styles from "./StartOverPrompt.css.ts"

export interface StartOverDialogProps {
  readonly title: string
  readonly description: string
  readonly beginLabel: string
  readonly onBegin: () => void
  readonly onLive: () => void
  /** where the question came from and where the answer sends the keyboard: the player */
  readonly player: () => HTMLElement | null
}

/**
 * "From the beginning or live?" as a non-modal Radix dialog in the page's flow, under the picture:
 * the page stays usable while it is open (the live picture runs on), and a phone's small picture is
 * never covered. It takes the keyboard only when it is on nothing yet, never from wherever the
 * viewer had moved it; Escape answers "live". Answered, the keyboard goes back to the player.
 */
export const StartOverDialog = ({ title, description, beginLabel, onBegin, onLive, player }: StartOverDialogProps) => (
  <Dialog.Root open modal={false} onOpenChange={(open) => (open ? undefined : onLive())}>
    <Dialog.Content
      className={styles.prompt}
      // the page just opened: the question is the first thing to answer; a keyboard already on
      // something (the player, the list) stays there, and a screen reader hears the question said
      onOpenAutoFocus={(event) => {
        const active = document.activeElement
        if (!(active === null || active === document.body)) event.preventDefault()
      }}
      onCloseAutoFocus={(event) => {
        event.preventDefault()
        // focus was on an answer, which is gone: the player takes it; focus elsewhere stays there
        if (document.activeElement === null || document.activeElement === document.body) player()?.focus()
      }}
      // it stays until answered: looking elsewhere on the page is no answer
      onInteractOutside={(event) => event.preventDefault()}
    >
      <div className={styles.text}>
        <Dialog.Title className={styles.title}>{title}</Dialog.Title>
        <Dialog.Description className={styles.description}>{description}</Dialog.Description>
      </div>
      <div className={styles.actions}>
        <button type="button" className={button({ tone: "secondary" })} onClick={onLive}>
          Watch live
        </button>
        <button type="button" className={button({ tone: "primary" })} onClick={onBegin}>
          {beginLabel}
        </button>
      </div>
    </Dialog.Content>
  </Dialog.Root>
)

import type { MouseEvent } from "react"
import * as styles from "./SkipLink.css.ts"

/** The id of each layout's <main>, which the skip link and closing dialogs hand focus to. */
export const MAIN_ID = "main-content"

// The router would treat a change of hash as a navigation; moving focus is all that is wanted.
const skipToMain = (event: MouseEvent<HTMLAnchorElement>) => {
  event.preventDefault()
  document.getElementById(MAIN_ID)?.focus()
}

/** The first Tab stop of a layout: past the brand and the header's links, straight to the page. */
export const SkipLink = () => (
  <a className={styles.skipLink} href={`#${MAIN_ID}`} onClick={skipToMain}>
    Skip to main content
  </a>
)

import { useSelector } from "@xstate/react"
import type { ActorRefFrom } from "xstate"
import type { playerMachine } from "../../machines/player/playerMachine.ts"
import { sameLogo, selectLogo } from "../../machines/player/playerSelectors.ts"
import * as styles from "./PlayerLogo.css.ts"

type PlayerActor = ActorRefFrom<typeof playerMachine>

/** The logo in its corner; it leads to the site in a new tab, so the stream keeps playing here. */
export const PlayerLogo = ({ actor }: { readonly actor: PlayerActor }) => {
  const logo = useSelector(actor, selectLogo, sameLogo)
  if (logo === null) return null
  return (
    <a
      className={styles.logo}
      href={logo.href}
      target="_blank"
      rel="noopener"
      aria-label="Home page (opens in a new tab)"
      title="Home page (opens in a new tab)"
      data-vertical={logo.vertical}
      data-horizontal={logo.horizontal}
      data-clears-controls={logo.clearsControls}
    >
      <img className={styles.image} src={logo.src} alt="" />
    </a>
  )
}

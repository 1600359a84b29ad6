import { useLocation } from "react-router-dom"
import * as styles from "./Footer.css.ts"

/** The note is about the streams grid (SPEC §1), so it is said there only; the schedule link is on every page. */
export const Footer = ({ scheduleUrl }: { readonly scheduleUrl: string }) => {
  const onStreamsPage = useLocation().pathname === "/"
  return (
    <footer className={styles.footer}>
      <div className={styles.inner}>
        {onStreamsPage ? <p className={styles.text}>Only two sports channels are streamed at the moment; more will be added.</p> : null}
        <p className={styles.text}>
          Looking for a match?{" "}
          <a href={scheduleUrl} target="_blank" rel="noopener noreferrer">
            See the full stream schedule
          </a>
        </p>
      </div>
    </footer>
  )
}

import * as styles from "./Footer.css.ts"

export const Footer = ({ scheduleUrl }: { readonly scheduleUrl: string }) => (
  <footer className={styles.footer}>
    <div className={styles.inner}>
      <p className={styles.text}>Only two sports channels are streamed at the moment; more will be added.</p>
      <p className={styles.text}>
        Looking for a match?{" "}
        <a href={scheduleUrl} target="_blank" rel="noopener noreferrer">
          See the full stream schedule
        </a>
      </p>
    </div>
  </footer>
)

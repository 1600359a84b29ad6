import { Link } from "react-router-dom"
import type { Tag } from "../../domain/Stream.ts"
import { Icon } from "../shared/Icon.tsx"
import * as styles from "./TagList.css.ts"

const iconLabels = {
  chromecast: "Chromecast supported",
  airplay: "AirPlay supported",
  lls: "Low-latency stream"
} as const

/** Tags follow SPEC §3; every one of them explains itself on the FAQ page. */
const TagChip = ({ tag }: { readonly tag: Tag }) => {
  switch (tag.kind) {
    case "warning":
    case "info":
      return (
        <Link to="/support" className={styles.tag[tag.kind]} aria-label={`${tag.kind === "warning" ? "Warning" : "Note"}: ${tag.text}`}>
          <Icon name={tag.kind} size={14} />
          {tag.text}
        </Link>
      )
    case "chromecast":
    case "airplay":
    case "lls":
      return (
        <Link to="/support" className={styles.tag.icon} aria-label={iconLabels[tag.kind]} title={iconLabels[tag.kind]}>
          <Icon name={tag.kind} size={16} />
        </Link>
      )
    case "label":
      return (
        <Link to="/support" className={styles.tag.label}>
          {tag.text}
        </Link>
      )
  }
}

export const TagList = ({ tags }: { readonly tags: ReadonlyArray<Tag> }) =>
  tags.length === 0 ? null : (
    <ul className={styles.list} aria-label="Tags">
      {tags.map((tag, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: a stream may carry the same tag twice
        <li key={`${tag.kind}-${tag.text}-${index}`}>
          <TagChip tag={tag} />
        </li>
      ))}
    </ul>
  )

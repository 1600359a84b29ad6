import { useState } from "react"
import { Icon } from "./Icon.tsx"
import * as styles from "./Poster.css.ts"

interface PosterProps {
  /** the stream's image; empty when it has none */
  readonly src: string
  /** empty when the title is said beside the poster */
  readonly alt: string
  readonly className: string
  readonly iconSize: number
}

/**
 * A stream's poster, or a designed stand-in when it has none or its image does not load: never a
 * broken-image icon. Which address failed is the browser's to know, so it is kept here.
 */
export const Poster = ({ src, alt, className, iconSize }: PosterProps) => {
  // remembered per address, so a stream whose poster changes gets to try the new one
  const [failed, setFailed] = useState<string | null>(null)
  if (src === "" || src === failed) {
    return (
      <span className={`${className} ${styles.placeholder}`} data-poster="placeholder" aria-hidden="true">
        <Icon name="tv" size={iconSize} />
      </span>
    )
  }
  return (
    <img className={className} src={src} alt={alt} loading="lazy" decoding="async" data-poster="image" onError={() => setFailed(src)} />
  )
}

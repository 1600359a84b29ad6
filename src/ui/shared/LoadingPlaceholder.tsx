import type { CSSProperties } from "react"
import { visuallyHidden } from "./controls.css.ts"
import { placeholders } from "./LoadingPlaceholder.css.ts"
import { SKELETON_HEIGHT, skeleton } from "./surfaces.css.ts"

interface LoadingPlaceholderProps {
  /** What is loading, for those who cannot see the placeholders. */
  readonly label: string
  readonly count?: number
  /** The height of what each placeholder stands for. */
  readonly height?: string
}

/** Part of a page on its way: grey blocks the size of what is coming, and its name read out. */
export const LoadingPlaceholder = ({ label, count = 1, height }: LoadingPlaceholderProps) => (
  <div role="status" className={placeholders}>
    <span className={visuallyHidden}>{label}</span>
    {Array.from({ length: count }, (_, index) => index).map((placeholder) => (
      <div
        key={placeholder}
        className={skeleton()}
        style={height === undefined ? undefined : ({ [SKELETON_HEIGHT]: height } as CSSProperties)}
        aria-hidden="true"
      />
    ))}
  </div>
)

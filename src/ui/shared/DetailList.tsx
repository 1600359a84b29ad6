import { Fragment, type ReactNode } from "react"
import * as styles from "./DetailList.css.ts"

export interface Detail {
  readonly term: string
  readonly definition: ReactNode
}

/** A description list: what each term is. */
export const DetailList = ({ details, size = "body" }: { readonly details: ReadonlyArray<Detail>; readonly size?: "body" | "small" }) => (
  <dl className={styles.list({ size })}>
    {details.map((detail) => (
      <Fragment key={detail.term}>
        <dt className={styles.term}>{detail.term}</dt>
        <dd className={styles.definition}>{detail.definition}</dd>
      </Fragment>
    ))}
  </dl>
)

// biome-ignore-all lint/a11y/noRedundantRoles: on a phone the table's parts are laid out as cards (display block and grid), which drops their table semantics in some browsers unless the roles are set
import { type MouseEvent, type ReactNode, useId } from "react"
import { visuallyHidden } from "./controls.css.ts"
import * as styles from "./DataTable.css.ts"
import { empty as emptyNote, panel } from "./surfaces.css.ts"

/** Said where a value is missing (SPEC §2). */
export const MISSING = "---"

export interface Column<Row> {
  /** Names the column, and labels each of its values on a phone. */
  readonly header: string
  /** The value; null or undefined shows as MISSING. */
  readonly cell: (row: Row) => ReactNode
  /** `text` wraps between words; `number` is right-aligned figures; `nowrap` (dates, times, addresses, labels) keeps to a line; `code` is an id or a token. */
  readonly kind?: "text" | "number" | "nowrap" | "code"
  /** Takes the whole width of a phone's card: a long value (an email, a subject). */
  readonly wide?: boolean
  /** Named to assistive technology only: a column of buttons that name themselves. */
  readonly hideHeader?: boolean
}

interface DataTableProps<Row> {
  readonly caption: string
  readonly columns: ReadonlyArray<Column<Row>>
  readonly rows: ReadonlyArray<Row>
  readonly rowKey: (row: Row) => string | number
  /** A row that needs attention: strong or light red. */
  readonly rowTone?: (row: Row) => "strong" | "light" | "none"
  /** A click anywhere on a row, for the mouse; a button in the row must do the same for the keyboard. */
  readonly onRowClick?: (row: Row) => void
  /** Said under the headers when there are no rows. */
  readonly empty?: string
  /** What goes under the table, such as its pager. */
  readonly children?: ReactNode
}

// a click on a row's own control is that control's to handle
const onControl = (event: MouseEvent): boolean =>
  event.target instanceof Element && event.target.closest("a, button, input, select, textarea, summary") !== null

/** Every table of the app: a caption, columns described as data, and the rows as cards on a phone. */
export const DataTable = <Row,>({ caption, columns, rows, rowKey, rowTone, onRowClick, empty, children }: DataTableProps<Row>) => {
  const captionId = useId()
  return (
    <div className={panel({ spacing: "compact" })}>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex lint/a11y/useSemanticElements: a table wider than the screen scrolls in this region, which the keyboard must reach */}
      <div className={styles.scroller} tabIndex={0} role="region" aria-labelledby={captionId}>
        <table role="table" className={styles.table}>
          <caption id={captionId} className={styles.caption}>
            {caption}
          </caption>
          <thead role="rowgroup" className={styles.head}>
            <tr role="row">
              {columns.map((column) => (
                <th key={column.header} role="columnheader" scope="col" className={styles.headCell({ numeric: column.kind === "number" })}>
                  {column.hideHeader ? <span className={visuallyHidden}>{column.header}</span> : column.header}
                </th>
              ))}
            </tr>
          </thead>
          <tbody role="rowgroup" className={styles.body}>
            {rows.map((row) => (
              <tr
                key={rowKey(row)}
                role="row"
                className={styles.row({ tone: rowTone?.(row) ?? "none", clickable: onRowClick !== undefined })}
                onClick={onRowClick === undefined ? undefined : (event) => (onControl(event) ? undefined : onRowClick(row))}
              >
                {columns.map((column) => (
                  <td
                    key={column.header}
                    role="cell"
                    data-label={column.hideHeader ? undefined : column.header}
                    className={styles.cell({ kind: column.kind ?? "text", wide: column.wide ?? false })}
                  >
                    {/* one box for the value, so that a phone's card lays out the label and the value, not the value's parts */}
                    <span>{column.cell(row) ?? MISSING}</span>
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {rows.length === 0 && empty !== undefined ? <p className={emptyNote({ inset: true })}>{empty}</p> : null}
      {children}
    </div>
  )
}

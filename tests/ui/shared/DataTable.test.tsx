import { cleanup, fireEvent, render, screen, within } from "@testing-library/react"
import { afterEach, describe, expect, it, vi } from "vitest"
import { type Column, DataTable, MISSING } from "../../../src/ui/shared/DataTable.tsx"

interface Row {
  readonly id: number
  readonly name: string
  readonly note: string | null
}

const rows: ReadonlyArray<Row> = [
  { id: 1, name: "One", note: "first" },
  { id: 2, name: "Two", note: null }
]

const columns = (onOpen: (id: number) => void): ReadonlyArray<Column<Row>> => [
  {
    header: "Name",
    cell: (row) => (
      <button type="button" onClick={() => onOpen(row.id)}>
        {row.name}
      </button>
    )
  },
  { header: "Note", cell: (row) => row.note },
  { header: "Id", cell: (row) => row.id, kind: "number" }
]

afterEach(cleanup)

describe("DataTable", () => {
  it("is a table named by its caption, in a keyboard-reachable region, with '---' for a missing value", () => {
    render(<DataTable caption="Things" columns={columns(() => undefined)} rows={rows} rowKey={(row) => row.id} />)
    const table = screen.getByRole("table", { name: "Things" })
    expect(screen.getByRole("region", { name: "Things" }).tabIndex).toBe(0)
    expect(
      within(table)
        .getAllByRole("columnheader")
        .map((header) => header.textContent)
    ).toEqual(["Name", "Note", "Id"])
    const cells = within(table).getAllByRole("cell")
    expect(cells.map((cell) => cell.textContent)).toEqual(["One", "first", "1", "Two", MISSING, "2"])
    // a phone's card labels each value with its column
    expect(cells.map((cell) => cell.dataset.label)).toEqual(["Name", "Note", "Id", "Name", "Note", "Id"])
  })

  it("runs the row's action on a click anywhere on it, and a control's own click only once", () => {
    const open = vi.fn()
    render(<DataTable caption="Things" columns={columns(open)} rows={rows} rowKey={(row) => row.id} onRowClick={(row) => open(row.id)} />)
    fireEvent.click(screen.getByRole("cell", { name: "first" }))
    expect(open).toHaveBeenCalledWith(1)
    open.mockClear()
    fireEvent.click(screen.getByRole("button", { name: "Two" }))
    expect(open.mock.calls).toEqual([[2]])
  })

  it("says what is missing under the headers when there are no rows", () => {
    render(<DataTable caption="Things" columns={columns(() => undefined)} rows={[]} rowKey={(row) => row.id} empty="Nothing yet." />)
    expect(screen.getAllByRole("row")).toHaveLength(1)
    expect(screen.getByText("Nothing yet.")).toBeTruthy()
  })
})

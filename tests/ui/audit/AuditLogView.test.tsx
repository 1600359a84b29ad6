import { fireEvent, screen, waitFor, within } from "@testing-library/react"
import { afterEach, describe, expect, it } from "vitest"
import type { AuditAction } from "../../../src/domain/Audit.ts"
import { audit } from "../../../src/server/audit/auditFeature.ts"
import type { InProcessServer } from "../../support/inProcessServer.ts"
import { renderApp, resetApp } from "../../support/renderApp.tsx"

const staff = [{ email: "staff@example.com", staff: true }]
const T0 = Date.parse("2026-01-15T12:00:00.000Z")

/** `count` entries, oldest first: every third by the CLI's root, the others by staff; every fourth a maintenance switch. */
const seed = async (server: InProcessServer, count: number) => {
  for (let i = 1; i <= count; i++) {
    const by = i % 3 === 0 ? audit.operator("root") : { actor: "staff@example.com", userId: 1, address: "10.0.0.7" }
    const action: AuditAction = i % 4 === 0 ? "maintenance.on" : "ticket.status"
    await audit.record(server.db.kysely, by, { action, target: i % 4 === 0 ? "site" : `ticket ${i}`, detail: `entry ${i}` }, T0 + i * 1000)
  }
}

const entryRows = () =>
  within(screen.getByRole("table", { name: "Audit entries" }))
    .getAllByRole("row")
    .slice(1)

describe("the audit log page", () => {
  afterEach(resetApp)

  it("is linked for staff and says when there are no entries", async () => {
    await renderApp({ signedIn: true, users: staff, path: "/adminaudit" })
    expect(await screen.findByRole("heading", { name: "Audit Log" })).toBeTruthy()
    expect(await screen.findByText("No audit entries")).toBeTruthy()
    const nav = within(screen.getByRole("banner")).getByRole("navigation", { name: "Main" })
    expect(within(nav).getByRole("link", { name: "Audit Log" }).getAttribute("aria-current")).toBe("page")
  })

  it("lists the newest entries first, loads older ones, and filters by action and by actor", async () => {
    await renderApp({
      signedIn: true,
      users: staff,
      path: async (server) => {
        await seed(server, 60)
        return "/adminaudit"
      }
    })
    await screen.findByRole("table", { name: "Audit entries" })
    expect(entryRows()).toHaveLength(50)
    expect(entryRows()[0]?.textContent).toContain("entry 60")
    expect(entryRows()[0]?.textContent).toContain("Operator CLI (root)")
    expect(entryRows()[0]?.textContent).toContain("Maintenance on")

    fireEvent.click(screen.getByRole("button", { name: "Load older entries" }))
    await waitFor(() => expect(entryRows()).toHaveLength(60))
    expect(entryRows().at(-1)?.textContent).toContain("entry 1")
    expect(screen.queryByRole("button", { name: "Load older entries" })).toBeNull()

    fireEvent.change(screen.getByLabelText("Action"), { target: { value: "maintenance.on" } })
    fireEvent.click(screen.getByRole("button", { name: "Apply filters" }))
    await waitFor(() => expect(entryRows()).toHaveLength(15))
    expect(entryRows().every((row) => row.textContent?.includes("maintenance.on"))).toBe(true)

    fireEvent.change(screen.getByLabelText("Actor"), { target: { value: "CLI:root" } })
    fireEvent.click(screen.getByRole("button", { name: "Apply filters" }))
    // every twelfth entry is root's maintenance switch
    await waitFor(() => expect(entryRows()).toHaveLength(5))

    fireEvent.change(screen.getByLabelText("Actor"), { target: { value: "nobody@example.com" } })
    fireEvent.click(screen.getByRole("button", { name: "Apply filters" }))
    expect(await screen.findByText("No audit entries")).toBeTruthy()
    expect(screen.getByText("Nothing matches these filters. Clear them to see every entry.")).toBeTruthy()

    fireEvent.click(screen.getByRole("button", { name: "Clear filters" }))
    await waitFor(() => expect(entryRows()).toHaveLength(50))
    expect((screen.getByLabelText("Actor") as HTMLInputElement).value).toBe("")
  })

  it("is not there for customers", async () => {
    await renderApp({ signedIn: true, path: "/adminaudit" })
    expect(await screen.findByRole("heading", { name: "Page not found" })).toBeTruthy()
    expect(screen.queryByRole("link", { name: "Audit Log" })).toBeNull()
  })
})

import type { AdminReportsSnapshot } from "./adminReportsMachine.ts"

export interface UsersPager {
  /** the rows shown, 1-based, of `rows` in all */
  readonly first: number
  readonly last: number
  readonly rows: number
  readonly pages: number
  /** the page asked for: ahead of the one shown while it loads */
  readonly asked: number
  readonly turning: boolean
  readonly canGoBack: boolean
  readonly canGoOn: boolean
}

/** The 'Sessions Streaming' table's pager; null when one page holds every row. */
export const selectUsersPager = (snapshot: AdminReportsSnapshot): UsersPager | null => {
  const page = snapshot.context.connections?.page
  if (page === undefined || page.rows <= page.size) return null
  const asked = snapshot.context.usersPage
  const pages = Math.ceil(page.rows / page.size)
  return {
    first: (page.number - 1) * page.size + 1,
    last: Math.min(page.number * page.size, page.rows),
    rows: page.rows,
    pages,
    asked,
    turning: snapshot.hasTag("usersLoading") && asked !== page.number,
    canGoBack: asked > 1,
    canGoOn: asked < pages
  }
}

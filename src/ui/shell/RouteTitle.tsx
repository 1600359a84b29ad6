import { Outlet, type UIMatch, useMatches } from "react-router-dom"
import { NOT_FOUND_TITLE } from "./NotFoundView.tsx"
import { PageTitle } from "./PageTitle.tsx"
import { useStaffAccess } from "./RequireStaff.tsx"

/** What a route of appRoutes may say about itself. */
export interface RouteHandle {
  /** The page's name, as its heading says it. */
  readonly title?: string
  /** The routes below exist only for staff. */
  readonly staffOnly?: boolean
}

const handleOf = (match: UIMatch): RouteHandle =>
  typeof match.handle === "object" && match.handle !== null ? (match.handle as RouteHandle) : {}

/** Titles every page once, from the deepest route that names itself. */
export const RouteTitle = () => {
  const handles = useMatches().map(handleOf)
  const staffAccess = useStaffAccess()
  const denied = staffAccess === "denied" && handles.some((handle) => handle.staffOnly === true)
  const title = denied ? NOT_FOUND_TITLE : handles.findLast((handle) => handle.title !== undefined)?.title
  return (
    <>
      {title === undefined ? null : <PageTitle title={title} />}
      <Outlet />
    </>
  )
}

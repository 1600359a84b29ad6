import { redirect, type LoaderFunction } from "react-router-dom"
import { waitFor } from "xstate"
import { selectSession, type BootActor } from "../machines/shell/bootMachine.ts"
import { selectIsAuthenticated } from "../machines/shell/sessionMachine.ts"

/**
 * Opening /logout is the logout command (SPEC §2): the route's loader hands it to the session,
 * which makes the call and, on success only, forgets the token and goes to /login. A visitor
 * without a session has nothing to end and goes straight to /login.
 */
export const createLogoutLoader = (boot: BootActor): LoaderFunction => async ({ request }) => {
  // /logout may be the first page opened: the session exists once boot has checked maintenance
  const snapshot = await waitFor(boot, (state) => selectSession(state) !== undefined, { signal: request.signal })
  const session = selectSession(snapshot)
  if (session === undefined || !selectIsAuthenticated(session.getSnapshot())) return redirect("/login")
  session.send({ type: "session.logout" })
  return null
}

import { createMachine } from "xstate"
import { createTestModel } from "xstate/graph"

/**
 * What a person sees while signing in and out, as a test model: no invoke or delay, only the
 * screens and the steps between them. The test drives the real app along every path.
 */
export const sessionModel = createMachine({
  id: "sessionModel",
  initial: "closed",
  states: {
    closed: {
      description: "the app not opened yet",
      on: {
        "app.open": { target: "loginPage", description: "open the app without a session" },
        "app.openWithStoredToken": { target: "home", description: "open the app with a stored session" },
        "app.openLoginWithStoredToken": { target: "home", description: "open the login page with a stored session" }
      }
    },
    loginPage: {
      description: "the login page with an empty form",
      on: {
        "login.wrongPassword": { target: "loginRefused", description: "sign in with a wrong password" },
        "login.correctPassword": { target: "home", description: "sign in" }
      }
    },
    loginRefused: {
      description: "the login page showing the server's reason in red",
      on: { "login.correctPassword": { target: "home", description: "sign in with the right password" } }
    },
    home: {
      description: "the streams grid under the header",
      on: {
        "session.logout": { target: "loggedOut", description: "log out" },
        "session.logoutRefused": { target: "stillSignedIn", description: "log out while the server refuses it" },
        "session.forbidden": { target: "sessionEnded", description: "the session ends elsewhere, then open another page" }
      }
    },
    stillSignedIn: {
      description: "still on the grid, signed in: a refused logout only writes to the console",
      on: { "session.logout": { target: "loggedOut", description: "log out again" } }
    },
    loggedOut: {
      description: "back on the login page, the session gone",
      on: { "login.correctPassword": { target: "signedInAgain", description: "sign in again" } }
    },
    sessionEnded: {
      description: "sent to the login page by a 403, the token forgotten"
    },
    signedInAgain: {
      description: "the streams grid again, with a new session"
    }
  }
})

/** Every path the tests walk: each simple path from the closed app. */
export const sessionPaths = () => createTestModel(sessionModel).getSimplePaths()

import { createMachine } from "xstate"

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
        "app.open": "loginPage",
        "app.openWithStoredToken": "home",
        "app.openLoginWithStoredToken": "home"
      }
    },
    loginPage: {
      description: "the login page with an empty form",
      on: { "login.wrongPassword": "loginRefused", "login.correctPassword": "home" }
    },
    loginRefused: {
      description: "the login page showing the server's reason in red",
      on: { "login.correctPassword": "home" }
    },
    home: {
      description: "the streams grid under the header",
      on: {
        "session.logout": "loggedOut",
        "session.logoutRefused": "stillSignedIn",
        "session.forbidden": "sessionEnded"
      }
    },
    stillSignedIn: {
      description: "still on the grid, signed in: a refused logout only writes to the console",
      on: { "session.logout": "loggedOut" }
    },
    loggedOut: {
      description: "back on the login page, the session gone",
      on: { "login.correctPassword": "signedInAgain" }
    },
    sessionEnded: {
      description: "sent to the login page by a 403, the token forgotten"
    },
    signedInAgain: {
      description: "the streams grid again, with a new session"
    }
  }
})

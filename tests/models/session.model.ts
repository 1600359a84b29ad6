import { createMachine } from "xstate"

/**
 * What a person sees while signing in and out, as a test model: no invoke or delay, only the
 * screens and the steps between them. The test drives the real app along every path.
 */
export const sessionModel = createMachine({
  id: "sessionModel",
  initial: "loginPage",
  states: {
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
      on: { "session.logout": "loggedOut" }
    },
    loggedOut: {
      description: "back on the login page, the session gone",
      on: { "login.correctPassword": "home" }
    }
  }
})

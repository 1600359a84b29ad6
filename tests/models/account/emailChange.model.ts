import { createMachine } from "xstate"
import { createTestModel } from "xstate/graph"

/**
 * What a person sees changing their email, as a test model (no invoke, no delay): asking on
 * /profile, the link mailed to the new address, its result page, and signing in with the new email.
 */
export const emailChangeModel = createMachine({
  id: "emailChangeModel",
  initial: "closed",
  states: {
    closed: {
      description: "nothing opened yet",
      on: {
        "profile.open": { target: "profile", description: "open the account settings, signed in" },
        "link.openUnknown": { target: "changeRefused", description: "open a confirmation link the server does not know" },
        "link.openValid": { target: "changed", description: "open a valid confirmation link, signed out" }
      }
    },
    profile: {
      description: "'Update email or username' filled with the user's username and email",
      on: {
        "details.submitWrongPassword": { target: "profileRefused", description: "submit the same email with a wrong password" },
        "details.submitNewEmail": { target: "pending", description: "submit a new email with the password" }
      }
    },
    profileRefused: {
      description: "'Failed to update' with 'Incorrect password'",
      on: { "details.submitNewEmail": { target: "pending", description: "submit a new email with the right password" } }
    },
    pending: {
      description: "'Success!' asking to follow the instructions sent to the new address",
      on: { "mail.followLink": { target: "changedSignedIn", description: "follow the link mailed to the new address" } }
    },
    changedSignedIn: {
      description: "the confirmation page naming the new address, still signed in",
      on: { "profile.reopen": { target: "profileUpdated", description: "open the account settings again" } }
    },
    profileUpdated: { description: "the account settings showing the new email" },
    changeRefused: {
      description: "the server's message and a Go Home button",
      on: { "home.go": { target: "loginPage", description: "press Go Home" } }
    },
    loginPage: { description: "the login page, for a visitor without a session" },
    changed: {
      description: "the confirmation page naming the new address, signed out",
      on: { "home.go": { target: "loginAfterChange", description: "press Go Home" } }
    },
    loginAfterChange: {
      description: "the login page after the change",
      on: { "login.withNewEmail": { target: "home", description: "sign in with the new email" } }
    },
    home: { description: "signed in with the new email" }
  }
})

/** Every path the tests walk: each simple path from the closed app. */
export const emailChangePaths = () => createTestModel(emailChangeModel).getSimplePaths()

import { createMachine } from "xstate"

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
      on: { "profile.open": "profile", "link.openUnknown": "changeRefused", "link.openValid": "changed" }
    },
    profile: {
      description: "'Update email or username' filled with the user's username and email",
      on: { "details.submitWrongPassword": "profileRefused", "details.submitNewEmail": "pending" }
    },
    profileRefused: {
      description: "'Failed to update' with 'Incorrect password'",
      on: { "details.submitNewEmail": "pending" }
    },
    pending: {
      description: "'Success!' asking to follow the instructions sent to the new address",
      on: { "mail.followLink": "changedSignedIn" }
    },
    changedSignedIn: {
      description: "the confirmation page naming the new address, still signed in",
      on: { "profile.reopen": "profileUpdated" }
    },
    profileUpdated: { description: "the account settings showing the new email" },
    changeRefused: {
      description: "the server's message and a Go Home button",
      on: { "home.go": "loginPage" }
    },
    loginPage: { description: "the login page, for a visitor without a session" },
    changed: {
      description: "the confirmation page naming the new address, signed out",
      on: { "home.go": "loginAfterChange" }
    },
    loginAfterChange: {
      description: "the login page after the change",
      on: { "login.withNewEmail": "home" }
    },
    home: { description: "signed in with the new email" }
  }
})

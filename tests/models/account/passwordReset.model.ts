import { createMachine } from "xstate"
import { createTestModel } from "xstate/graph"

/**
 * What a person sees resetting a forgotten password, as a test model (no invoke, no delay): asking
 * for the mail, the link's check, the form, its two endings, and signing in with the new password.
 */
export const passwordResetModel = createMachine({
  id: "passwordResetModel",
  initial: "closed",
  states: {
    closed: {
      description: "nothing opened yet",
      on: {
        "forgot.request": { target: "requested", description: "ask for a reset link on the forgot-password page" },
        "link.openUnknown": { target: "linkRefused", description: "open a reset link the server does not know" },
        "link.openValid": { target: "form", description: "open a valid reset link" }
      }
    },
    requested: {
      description: "the forgot-password page saying that instructions will be sent if the email is registered",
      on: { "mail.followLink": { target: "form", description: "follow the reset link in the mail" } }
    },
    linkRefused: { description: "the server's reason the link cannot be used, and a way to ask for a new one" },
    form: {
      description: "the account's email, read-only, and two password fields",
      on: {
        "form.submitMismatch": { target: "formErrors", description: "submit a short password and another confirmation" },
        "form.submitValid": { target: "complete", description: "submit a new password" },
        "form.submitAfterUse": { target: "resetRefused", description: "submit after the link was used in another tab" }
      }
    },
    formErrors: {
      description: "the form with the exact messages",
      on: { "form.submitValid": { target: "complete", description: "fix the fields and submit" } }
    },
    resetRefused: { description: "the link was used meanwhile: the server's detail instead of the form" },
    complete: {
      description: "'Password has been updated' with a button to the login page",
      on: { "login.open": { target: "loginPage", description: "go to the login page" } }
    },
    loginPage: {
      description: "the login page",
      on: { "login.withNewPassword": { target: "home", description: "sign in with the new password" } }
    },
    home: { description: "signed in with the new password" }
  }
})

/** Every path the tests walk: each simple path from the closed app. */
export const passwordResetPaths = () => createTestModel(passwordResetModel).getSimplePaths()

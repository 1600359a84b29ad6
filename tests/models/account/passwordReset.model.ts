import { createMachine } from "xstate"

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
      on: { "forgot.request": "requested", "link.openUnknown": "linkRefused", "link.openValid": "form" }
    },
    requested: {
      description: "the forgot-password page saying that instructions will be sent if the email is registered",
      on: { "mail.followLink": "form" }
    },
    linkRefused: { description: "the server's reason the link cannot be used, and a way to ask for a new one" },
    form: {
      description: "the account's email, read-only, and two password fields",
      on: { "form.submitMismatch": "formErrors", "form.submitValid": "complete", "form.submitAfterUse": "resetRefused" }
    },
    formErrors: {
      description: "the form with the exact messages",
      on: { "form.submitValid": "complete" }
    },
    resetRefused: { description: "the link was used meanwhile: the server's detail instead of the form" },
    complete: {
      description: "'Password has been updated' with a button to the login page",
      on: { "login.open": "loginPage" }
    },
    loginPage: {
      description: "the login page",
      on: { "login.withNewPassword": "home" }
    },
    home: { description: "signed in with the new password" }
  }
})

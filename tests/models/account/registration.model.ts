import { createMachine } from "xstate"

/**
 * What a person sees signing up through an invite link, as a test model (no invoke, no delay):
 * the invite check's outcomes, the form, its two endings, and the mailed link to signing in.
 */
export const registrationModel = createMachine({
  id: "registrationModel",
  initial: "closed",
  states: {
    closed: {
      description: "nothing opened yet",
      on: { "invite.openMissing": "loginPage", "invite.openUnknown": "inviteRefused", "invite.openValid": "form" }
    },
    loginPage: { description: "the login page" },
    inviteRefused: { description: "'Oops!' with the server's detail, and no form" },
    form: {
      description: "the form: email, password, confirm password",
      on: { "form.submitInvalid": "formErrors", "form.submitTakenEmail": "emailTaken", "form.submitNewEmail": "complete" }
    },
    formErrors: {
      description: "the form with each field's exact message",
      on: { "form.submitNewEmail": "complete" }
    },
    emailTaken: {
      description: "'Oops!' for a registered email, with a 'Go to login page' button",
      on: { "login.open": "loginPage" }
    },
    complete: {
      description: "'Success! Account created' and the confirmation email to click",
      on: { "mail.followLink": "verified" }
    },
    verified: {
      description: "'Account Verified' with a Sign in button",
      on: { "login.signIn": "home" }
    },
    home: { description: "signed in with the new account, on the streams grid" }
  }
})

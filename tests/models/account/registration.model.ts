import { createMachine } from "xstate"
import { createTestModel } from "xstate/graph"

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
      on: {
        "invite.openMissing": { target: "loginPage", description: "open the register page without an invite" },
        "invite.openUnknown": { target: "inviteRefused", description: "open a withdrawn invite link" },
        "invite.openValid": { target: "form", description: "open a valid invite link" }
      }
    },
    loginPage: { description: "the login page" },
    inviteRefused: { description: "'Oops!' with the server's detail, and no form" },
    form: {
      description: "the form: email, password, confirm password",
      on: {
        "form.submitInvalid": { target: "formErrors", description: "submit a bad email, a short password and another confirmation" },
        "form.submitTakenEmail": { target: "emailTaken", description: "submit an email already registered" },
        "form.submitNewEmail": { target: "complete", description: "submit a new email" }
      }
    },
    formErrors: {
      description: "the form with each field's exact message",
      on: { "form.submitNewEmail": { target: "complete", description: "fix the fields and submit" } }
    },
    emailTaken: {
      description: "'Oops!' for a registered email, with a 'Go to login page' button",
      on: { "login.open": { target: "loginPage", description: "go to the login page" } }
    },
    complete: {
      description: "'Success! Account created' and the confirmation email to click",
      on: { "mail.followLink": { target: "verified", description: "follow the verification link in the mail" } }
    },
    verified: {
      description: "'Account Verified' with a Sign in button",
      on: { "login.signIn": { target: "home", description: "sign in with the new account" } }
    },
    home: { description: "signed in with the new account, on the streams grid" }
  }
})

/** Every path the tests walk: each simple path from the closed app. */
export const registrationPaths = () => createTestModel(registrationModel).getSimplePaths()

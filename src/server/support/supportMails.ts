import { type Mail, type MailSite, mail } from "../mail/mailFeature.ts"

/** The support address customers' replies go to (site setting supportEmail); "" or absent for none. */
type SupportSite = MailSite & { supportEmail?: string }

/**
 * How to answer, matching the mail's Reply-To (the mail worker sets it from the same setting): by
 * replying when there is a support address, else from Contact Us, since replies reach no one.
 */
function howToAnswer(site: SupportSite): string {
  const contact = `${site.publicUrl.replace(/\/+$/, "")}/contactus`
  return site.supportEmail
    ? `To answer, reply to this email: it goes to our support team at ${site.supportEmail}.`
    : `Please do not reply to this email, as replies are not read: to tell us more, open a new ticket from Contact Us at ${contact}.`
}

/** A staff answer to a support ticket; `message` is shown exactly as staff wrote it. */
export function ticketReplyMail(input: SupportSite & { to: string; ticketSubject: string; message: string }): Mail {
  return mail.compose(input, "ticket-reply", `Re: ${input.ticketSubject} [${input.siteName} support]`, [
    `Our support team answered your ticket "${mail.oneLine(input.ticketSubject)}":`,
    { quote: input.message },
    howToAnswer(input)
  ])
}

/** A ticket moved to another status by staff; the customer hears where it stands. */
export function ticketStatusMail(input: SupportSite & { to: string; ticketSubject: string; status: string }): Mail {
  return mail.compose(input, "ticket-status", `${input.status}: ${input.ticketSubject} [${input.siteName} support]`, [
    `Your ticket "${mail.oneLine(input.ticketSubject)}" is now ${input.status.toLowerCase()}.`,
    howToAnswer(input)
  ])
}

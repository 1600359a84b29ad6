import { type Mail, type MailSite, mail } from "../mail/mailFeature.ts"

/** A staff answer to a support ticket; `message` is shown exactly as staff wrote it. */
export function ticketReplyMail(input: MailSite & { to: string; ticketSubject: string; message: string }): Mail {
  return mail.compose(input, "ticket-reply", `Re: ${input.ticketSubject} [${input.siteName} support]`, [
    `Our support team answered your ticket "${mail.oneLine(input.ticketSubject)}":`,
    { quote: input.message }
  ])
}

/** A ticket moved to another status by staff; the customer hears where it stands. */
export function ticketStatusMail(input: MailSite & { to: string; ticketSubject: string; status: string }): Mail {
  return mail.compose(input, "ticket-status", `${input.status}: ${input.ticketSubject} [${input.siteName} support]`, [
    `Your ticket "${mail.oneLine(input.ticketSubject)}" is now ${input.status.toLowerCase()}.`,
    "Reply to our emails or open a new ticket from Contact Us if there is more we should know."
  ])
}

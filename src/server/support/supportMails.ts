import { mail, type Mail, type MailSite } from "../mail/mailFeature.ts"

/** A staff answer to a support ticket; `message` is shown exactly as staff wrote it. */
export function ticketReplyMail(input: MailSite & { to: string; ticketSubject: string; message: string }): Mail {
  return mail.compose(input, "ticket-reply", `Re: ${input.ticketSubject} [${input.siteName} support]`, [
    `Our support team answered your ticket "${mail.oneLine(input.ticketSubject)}":`,
    { quote: input.message }
  ])
}

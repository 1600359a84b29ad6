/** A mailed link opened without its token: nothing to send to the server. */
export const MISSING_TOKEN_MESSAGE = "This link is incomplete. Open the whole link from the email."

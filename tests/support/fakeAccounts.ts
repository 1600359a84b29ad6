/**
 * The account endpoints of the fake backend: invites, registration and its verification mail,
 * password reset, profile updates and email change, with the real server's result codes and a
 * mailbox holding the links it "sent".
 */
export interface FakeUser {
  email: string
  password: string
  username: string
  verified: boolean
  readonly is_staff?: boolean
}

export interface FakeAccountOptions {
  /** Invite codes that are valid (default: `good-invite`). */
  readonly invites?: ReadonlyArray<string>
  /** Reset tokens already mailed, by token: the account's email. */
  readonly resetTokens?: Readonly<Record<string, string>>
  /** Email-change tokens already mailed, by token: the account and its new address. */
  readonly emailChangeTokens?: Readonly<Record<string, { readonly email: string; readonly newEmail: string }>>
}

export interface FakeMail {
  readonly to: string
  readonly kind: "verify" | "reset" | "email-change"
  /** Path and query of the link in the mail, as the app routes it. */
  readonly link: string
}

export const INVITE_UNKNOWN_DETAIL = "This invite link no longer works. Ask the person who invited you for a new one."
export const EMAIL_VERIFIED_DETAIL = "Email verified. You can sign in now."
export const VERIFY_NOT_FOUND_DETAIL = "This verification link is not valid. Check that you opened the whole link from the email."
export const VERIFY_USED_DETAIL = "This verification link has already been used. You can sign in."
export const NOT_VERIFIED_DETAIL = "Please verify your email address before signing in."
export const RESET_INVALID_DETAIL = "This password reset link is not valid. Request a new one from the Forgot password page."
export const RESET_USED_DETAIL = "This password reset link has already been used. Request a new one from the Forgot password page."
export const CHANGE_NOT_FOUND_DETAIL = "This email confirmation link is not valid. Check that you opened the whole link from the email."
export const CHANGE_USED_DETAIL = "This email confirmation link has already been used."

type Reply = readonly [status: number, body: unknown]
type Token = { used: boolean }

export const createFakeAccounts = (users: Array<FakeUser>, sessions: Map<string, string>, options: FakeAccountOptions) => {
  const invites = new Set(options.invites ?? ["good-invite"])
  const verifyTokens = new Map<string, Token & { email: string }>()
  const resetTokens = new Map(Object.entries(options.resetTokens ?? {}).map(([token, email]) => [token, { email, used: false }]))
  const changeTokens = new Map(Object.entries(options.emailChangeTokens ?? {}).map(([token, change]) => [token, { ...change, used: false }]))
  const mailbox: Array<FakeMail> = []
  let counter = 0
  const mail = (to: string, kind: FakeMail["kind"], path: string) => {
    counter += 1
    const token = `${kind}-${counter}`
    mailbox.push({ to, kind, link: `${path}?token=${token}` })
    return token
  }
  const find = (email: string) => users.find((user) => user.email === email)
  const endSessionsOf = (email: string, keep?: string) => {
    for (const [token, owner] of sessions) if (owner === email && token !== keep) sessions.delete(token)
  }

  const anyone = (method: string, path: string, body: Record<string, string>): Reply | undefined => {
    if (method === "GET" && path.startsWith("/api/invitations/invitation/")) {
      return invites.has(decodeURIComponent(path.split("/").at(-1) ?? ""))
        ? [200, { success: true, resultCode: 1, detail: "Invite code is valid" }]
        : [200, { success: false, resultCode: 7, detail: INVITE_UNKNOWN_DETAIL }]
    }
    switch (`${method} ${path}`) {
      case "POST /api/users/register": {
        if (!invites.has(body.invitationToken ?? "")) return [200, { success: false, resultCode: 7, detail: INVITE_UNKNOWN_DETAIL }]
        const email = body.email ?? ""
        if (find(email) !== undefined) return [200, { success: false, resultCode: 14, detail: "EMAIL_ALREADY_REGISTERED" }]
        users.push({ email, password: body.password ?? "", username: body.username ?? "", verified: false })
        verifyTokens.set(mail(email, "verify", "/verify"), { email, used: false })
        return [200, { success: true, resultCode: 1, detail: `Account created. We sent an email to ${email}.` }]
      }
      case "POST /api/users/verify-new-email-token": {
        const token = verifyTokens.get(body.token ?? "")
        if (token === undefined) return [200, { success: false, resultCode: 2, detail: VERIFY_NOT_FOUND_DETAIL }]
        if (token.used) return [200, { success: false, resultCode: 18, detail: VERIFY_USED_DETAIL }]
        token.used = true
        const user = find(token.email)
        if (user !== undefined) user.verified = true
        return [200, { success: true, resultCode: 1, detail: EMAIL_VERIFIED_DETAIL }]
      }
      case "POST /api/users/create-password-reset-token": {
        const email = body.email ?? ""
        if (find(email) !== undefined) resetTokens.set(mail(email, "reset", "/password-reset-confirmation"), { email, used: false })
        return [200, { success: true, detail: "If the email is registered, reset instructions will be sent." }]
      }
      case "POST /api/users/verify-password-reset-token":
      case "POST /api/users/reset-password": {
        const token = resetTokens.get(body.token ?? "")
        if (token === undefined) return [200, { success: false, resultCode: 20, detail: RESET_INVALID_DETAIL }]
        if (token.used) return [200, { success: false, resultCode: 23, detail: RESET_USED_DETAIL }]
        if (path.endsWith("verify-password-reset-token")) return [200, { success: true, resultCode: 1, email: token.email }]
        token.used = true
        const user = find(token.email)
        if (user !== undefined) Object.assign(user, { password: body.newPassword ?? "", verified: true })
        endSessionsOf(token.email)
        return [200, { success: true, resultCode: 1, detail: "Password has been updated." }]
      }
      case "POST /api/users/confirmemailchange": {
        const token = changeTokens.get(body.email_token ?? "")
        if (token === undefined) return [200, { success: false, resultCode: 2, detail: CHANGE_NOT_FOUND_DETAIL }]
        if (token.used) return [200, { success: false, resultCode: 18, detail: CHANGE_USED_DETAIL }]
        token.used = true
        const user = find(token.email)
        if (user !== undefined) user.email = token.newEmail
        for (const [session, owner] of sessions) if (owner === token.email) sessions.set(session, token.newEmail)
        return [200, { success: true, resultCode: 1, email: token.newEmail }]
      }
      default:
        return undefined
    }
  }

  const signedIn = (method: string, path: string, body: Record<string, string>, user: FakeUser, token: string): Reply | undefined => {
    const unchanged = { emailUpdatePending: false, usernameUpdated: false }
    switch (`${method} ${path}`) {
      case "POST /api/users/logoutall":
        endSessionsOf(user.email)
        return [200, { success: true }]
      case "POST /api/users/updatepassword":
        if (body.currentPassword !== user.password) return [200, { success: false, resultCode: 12, detail: "Incorrect password" }]
        user.password = body.newPassword ?? ""
        endSessionsOf(user.email, token)
        return [200, { success: true, resultCode: 1 }]
      case "POST /api/users/updateusernameandemail": {
        if (body.password !== user.password) return [200, { success: false, resultCode: 12, ...unchanged, detail: "Incorrect password" }]
        const email = body.email ?? user.email
        const emailUpdatePending = email !== user.email
        if (emailUpdatePending && find(email) !== undefined) return [200, { success: false, resultCode: 14, ...unchanged }]
        const usernameUpdated = body.username !== user.username
        user.username = body.username ?? user.username
        if (emailUpdatePending) changeTokens.set(mail(email, "email-change", "/confirm-email-change"), { email: user.email, newEmail: email, used: false })
        return [200, { success: true, resultCode: 1, emailUpdatePending, usernameUpdated }]
      }
      default:
        return undefined
    }
  }

  return { mailbox, anyone, signedIn }
}

import * as Schema from "effect/Schema"
import { ResultCodeSchema } from "../ResultCode.ts"
import { UserInfo } from "../User.ts"
import { Email, Password, PasswordText, TokenString, Username } from "../Validation.ts"
import { CodedResponse, endpoint, OkResponse } from "./endpoint.ts"

export const LoginRequest = Schema.Struct({
  email: Email,
  password: PasswordText,
  isMobile: Schema.optionalKey(Schema.Boolean)
})
export const LoginResponse = Schema.Struct({
  success: Schema.Boolean,
  resultCode: ResultCodeSchema,
  token: Schema.optionalKey(Schema.String),
  detail: Schema.optionalKey(Schema.String)
})
/** A mailed sign-in link's token (sent when new networks are paused for the account). */
export const SignInLinkRequest = Schema.Struct({ token: TokenString, isMobile: Schema.optionalKey(Schema.Boolean) })
export const UserInfoRequest = Schema.Struct({ isMobile: Schema.optionalKey(Schema.Boolean) })
export const UserInfoResponse = Schema.Struct({ success: Schema.Boolean, data: UserInfo })

/** Signing in and out, and who is signed in. */
export const signInContract = {
  login: endpoint({
    method: "POST",
    path: "/api/users/login",
    body: LoginRequest,
    response: LoginResponse,
    access: "anyone",
    summary: "Sign in; answers a session token"
  }),
  signInWithLink: endpoint({
    method: "POST",
    path: "/api/users/sign-in-link",
    body: SignInLinkRequest,
    response: LoginResponse,
    access: "anyone",
    summary: "Sign in with a mailed sign-in link; answers a session token"
  }),
  logout: endpoint({ method: "POST", path: "/api/users/logout", response: OkResponse, access: "user", summary: "End this session" }),
  logoutAll: endpoint({
    method: "POST",
    path: "/api/users/logoutall",
    response: OkResponse,
    access: "user",
    summary: "End every session of the account"
  }),
  isAuthenticated: endpoint({
    method: "GET",
    path: "/api/users/isuserauthenticated",
    response: OkResponse,
    access: "anyone",
    summary: "Whether the Token header is a live session"
  }),
  userInfo: endpoint({
    method: "POST",
    path: "/api/users/user",
    body: UserInfoRequest,
    response: UserInfoResponse,
    access: "user",
    summary: "The signed-in user"
  })
} as const

export const RegisterRequest = Schema.Struct({ username: Username, email: Email, password: Password, invitationToken: TokenString })
export const VerifyEmailRequest = Schema.Struct({ token: TokenString })
export const ResendVerificationRequest = Schema.Struct({ email: Email })

/** Creating an account from an invite, and verifying its email. */
export const registrationContract = {
  register: endpoint({
    method: "POST",
    path: "/api/users/register",
    body: RegisterRequest,
    response: CodedResponse,
    access: "anyone",
    summary: "Create an account from an invite"
  }),
  verifyEmail: endpoint({
    method: "POST",
    path: "/api/users/verify-new-email-token",
    body: VerifyEmailRequest,
    response: CodedResponse,
    access: "anyone",
    summary: "Verify a new account's email"
  }),
  resendVerification: endpoint({
    method: "POST",
    path: "/api/users/resend-verification",
    body: ResendVerificationRequest,
    response: OkResponse,
    access: "anyone",
    summary: "Mail a fresh verification link (same answer whether or not the email exists or is verified)"
  })
} as const

/** A mailed token checked: its result code, and the address it is for (SPEC §3). */
export const TokenCheckResponse = Schema.Struct({
  success: Schema.Boolean,
  resultCode: ResultCodeSchema,
  email: Schema.optionalKey(Schema.String),
  detail: Schema.optionalKey(Schema.String)
})
export const PasswordResetRequest = Schema.Struct({ email: Email })
export const ResetTokenRequest = Schema.Struct({ token: TokenString })
export const ResetPasswordRequest = Schema.Struct({ token: TokenString, newPassword: Password })

/** A forgotten password: the mailed link, its check, the new password. */
export const passwordResetContract = {
  createPasswordReset: endpoint({
    method: "POST",
    path: "/api/users/create-password-reset-token",
    body: PasswordResetRequest,
    response: OkResponse,
    access: "anyone",
    summary: "Mail a password reset link (same answer whether or not the email exists)"
  }),
  verifyPasswordReset: endpoint({
    method: "POST",
    path: "/api/users/verify-password-reset-token",
    body: ResetTokenRequest,
    response: TokenCheckResponse,
    access: "anyone",
    summary: "Check a password reset token"
  }),
  resetPassword: endpoint({
    method: "POST",
    path: "/api/users/reset-password",
    body: ResetPasswordRequest,
    response: CodedResponse,
    access: "anyone",
    summary: "Set a new password with a reset token"
  })
} as const

export const UpdatePasswordRequest = Schema.Struct({ currentPassword: Password, newPassword: Password })
export const UpdateDetailsRequest = Schema.Struct({ username: Username, email: Email, password: PasswordText })
export const UpdateDetailsResponse = Schema.Struct({
  success: Schema.Boolean,
  resultCode: ResultCodeSchema,
  emailUpdatePending: Schema.Boolean,
  usernameUpdated: Schema.Boolean,
  detail: Schema.optionalKey(Schema.String)
})
export const ConfirmEmailChangeRequest = Schema.Struct({ email_token: TokenString })

/** /profile's changes: the password, the username and email, and the mailed confirmation of a new email. */
export const profileContract = {
  updatePassword: endpoint({
    method: "POST",
    path: "/api/users/updatepassword",
    body: UpdatePasswordRequest,
    response: CodedResponse,
    access: "user",
    summary: "Change the password"
  }),
  updateUsernameAndEmail: endpoint({
    method: "POST",
    path: "/api/users/updateusernameandemail",
    body: UpdateDetailsRequest,
    response: UpdateDetailsResponse,
    access: "user",
    summary: "Change username and/or email (the email after confirmation)"
  }),
  confirmEmailChange: endpoint({
    method: "POST",
    path: "/api/users/confirmemailchange",
    body: ConfirmEmailChangeRequest,
    response: TokenCheckResponse,
    access: "anyone",
    summary: "Confirm an email change"
  })
} as const

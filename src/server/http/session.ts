/** The signed-in caller as handlers see it; the account feature resolves it from the Token header. */
export interface Session {
  readonly sessionId: number
  readonly tokenHash: string
  readonly userId: number
  readonly email: string
  readonly username: string
  readonly isStaff: boolean
}

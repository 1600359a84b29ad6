import { createFakeAccounts, NOT_VERIFIED_DETAIL, type FakeAccountOptions, type FakeUser } from "./fakeAccounts.ts"

/**
 * The few endpoints the browser side needs, in memory, behind a `fetch` with the real server's
 * habits: JSON everywhere, a 403 for a missing or unknown Token, failure bodies on errors.
 */
export interface FakeStream {
  readonly id: number
  readonly title: string
  readonly src: string | null
  readonly src_sldp: string | null
  readonly image_location: string
  readonly tags: string
  readonly tags_sldp: string
  readonly maintenance_mode: boolean
}

export interface FakeBackendOptions extends FakeAccountOptions {
  readonly maintenance?: boolean
  readonly users?: ReadonlyArray<{ readonly email: string; readonly password: string; readonly is_staff?: boolean; readonly username?: string; readonly verified?: boolean }>
  readonly streams?: ReadonlyArray<FakeStream>
  readonly announcement?: { readonly token: string; readonly title: string; readonly text: string }
  readonly ticketResult?: { readonly status: number; readonly body: unknown }
}

export interface RecordedCall {
  readonly method: string
  readonly path: string
  readonly token: string | null
  readonly body: unknown
}

export const WRONG_PASSWORD_DETAIL = "Email and password do not match"

export const demoStreams: ReadonlyArray<FakeStream> = [
  { id: 1, title: "Sports One", src: "/live/demo1/index.m3u8", src_sldp: "/live/demo1/index.m3u8", image_location: "/img/1.svg", tags: "chromecast,airplay,HD", tags_sldp: "lls,!Audio out of sync,?English commentary", maintenance_mode: false },
  { id: 2, title: "Sports Two", src: "/live/demo2/index.m3u8", src_sldp: null, image_location: "/img/2.svg", tags: "", tags_sldp: "", maintenance_mode: false },
  { id: 3, title: "Closed Channel", src: "/live/demo3/index.m3u8", src_sldp: null, image_location: "/img/3.svg", tags: "", tags_sldp: "", maintenance_mode: true },
  { id: 4, title: "Premium Channel", src: null, src_sldp: null, image_location: "/img/4.svg", tags: "", tags_sldp: "", maintenance_mode: false }
]

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json; charset=utf-8" } })

const forbidden = () => json(403, { success: false, status: 403, detail: "Authentication required" })

export const createFakeBackend = (options: FakeBackendOptions = {}) => {
  // records, not the options themselves: the account endpoints change passwords, emails and names
  const users: Array<FakeUser> = (options.users ?? [{ email: "ann@example.com", password: "correct horse" }]).map((user) => ({
    ...user,
    username: user.username ?? user.email.split("@")[0] ?? "",
    verified: user.verified ?? true
  }))
  const sessions = new Map<string, string>()
  const accounts = createFakeAccounts(users, sessions, options)
  const calls: Array<RecordedCall> = []
  let counter = 0

  const fetch = async (input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> => {
    const path = new URL(String(input), "http://localhost").pathname
    const method = init.method ?? "GET"
    const headers = (init.headers ?? {}) as Record<string, string>
    const token = headers["Token"] ?? null
    const body: unknown = typeof init.body === "string" ? JSON.parse(init.body) : undefined
    calls.push({ method, path, token, body })
    const email = token === null ? undefined : sessions.get(token)
    const user = users.find((candidate) => candidate.email === email)

    switch (`${method} ${path}`) {
      case "GET /api/maintenance":
        return json(200, {
          maintenanceMode: options.maintenance === true,
          title: "Scheduled maintenance",
          firstRowText: "We are upgrading our servers.",
          secondRowText: "Please come back in about an hour."
        })
      case "GET /api/site-settings":
        return json(200, {
          success: true,
          data: { siteName: "StreamHub", pricePerRewardPoint: 1, subscriptionPrice: 5, scheduleUrl: "https://schedule.example/", chatUrl: "https://chat.example/", hiddenScheduleChannel: "" }
        })
      case "POST /api/users/login": {
        const { email: given, password } = body as { email: string; password: string }
        const match = users.find((candidate) => candidate.email === given && candidate.password === password)
        if (match === undefined) return json(200, { success: false, resultCode: 12, detail: WRONG_PASSWORD_DETAIL })
        if (!match.verified) return json(200, { success: false, resultCode: 13, detail: NOT_VERIFIED_DETAIL })
        counter += 1
        const issued = `token-${counter}`
        sessions.set(issued, match.email)
        return json(200, { success: true, resultCode: 1, token: issued })
      }
      case "POST /api/users/user":
        return user === undefined
          ? forbidden()
          : json(200, { success: true, data: { email: user.email, username: user.username, is_staff: user.is_staff === true, userRewardPoints: 0, pricePerRewardPoint: 1 } })
      case "GET /api/announcement/latest":
        if (user === undefined) return forbidden()
        return json(200, options.announcement === undefined ? { resultCode: 24 } : { resultCode: 1, ...options.announcement })
      case "GET /api/streams/all":
        return user === undefined ? forbidden() : json(200, { success: true, data: options.streams ?? demoStreams })
      case "POST /api/users/logout":
        if (token === null || user === undefined) return forbidden()
        sessions.delete(token)
        return json(200, { success: true })
      case "POST /api/support/ticket": {
        if (user === undefined) return forbidden()
        const result = options.ticketResult ?? { status: 200, body: { success: true, resultCode: 1 } }
        return json(result.status, result.body)
      }
      default: {
        const fields = (body ?? {}) as Record<string, string>
        const reply = accounts.anyone(method, path, fields) ??
          (user === undefined || token === null ? undefined : accounts.signedIn(method, path, fields, user, token))
        if (reply !== undefined) return json(...reply)
        if (path.startsWith("/api/users/") && user === undefined) return forbidden()
        return json(404, { success: false, status: 404, detail: `No route ${method} ${path}` })
      }
    }
  }
  return { fetch, calls, sessions, users, mailbox: accounts.mailbox }
}

import type { LightMyRequestResponse } from "fastify"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { api, type EndpointName } from "../../../src/domain/contract/api.ts"
import { ApiFailure, buildPath } from "../../../src/domain/contract/endpoint.ts"
import { decodeWith } from "../../../src/domain/decode.ts"
import { DEFAULT_BODY_LIMIT } from "../../../src/server/app.ts"
import type { Db } from "../../../src/server/db/database.ts"
import { MALFORMED_JSON } from "../../../src/server/http/bodyParsers.ts"
import { routePath } from "../../../src/server/http/registerContract.ts"
import { dialects } from "../../support/dbHarness.ts"
import { nextIp, startTestServer, type TestServer, tableCounts } from "../../support/testServer.ts"

// Every contract entry that takes a body or path parameters gets a battery of bad input from every
// kind of caller. Whatever arrives, the answer is a 4xx JSON failure body, never a 5xx, and
// nothing is stored.

const NOT_AN_OBJECT = "Expected a JSON object as the request body"
const HUGE = "x".repeat(100_000)

const analytics = {
  session_id: "s",
  sitegroup_id: "streamhub",
  media_id: "1",
  site_id: "web",
  player_id: "tv",
  video_type: "live",
  created: 0,
  position: 0,
  player_version: "3.4.5",
  source: "hls",
  category: "",
  category_id: "",
  autoplay: true,
  muted: true,
  customer_user_id: ""
}
const healthEvent = {
  session_id: "s",
  device_id: "d",
  version: "3.4.5",
  source: "hls",
  page_url: "/player",
  event: "play",
  current_time: 1,
  client_time: 2,
  adjusted_time: 3
}

/** A body each endpoint's schema accepts; the bad ones are made from it one change at a time. */
const VALID_BODY: { readonly [N in EndpointName as (typeof api)[N]["body"] extends undefined ? never : N]: Record<string, unknown> } = {
  login: { email: "nobody@example.com", password: "wrong password", isMobile: false },
  userInfo: { isMobile: false },
  register: { username: "newbie", email: "newbie@example.com", password: "long enough", invitationToken: "invite-code" },
  verifyEmail: { token: "unknown" },
  resendVerification: { email: "nobody@example.com" },
  updatePassword: { currentPassword: "wrong password", newPassword: "another password" },
  updateUsernameAndEmail: { username: "someone", email: "someone@example.com", password: "wrong password" },
  confirmEmailChange: { email_token: "unknown" },
  signInWithLink: { token: "unknown" },
  createPasswordReset: { email: "nobody@example.com" },
  verifyPasswordReset: { token: "unknown" },
  resetPassword: { token: "unknown", newPassword: "another password" },
  createTicket: { type: 5, subject: "Hello", description: "Just saying hi" },
  updateTicket: { ticketId: 1, newStatus: 2 },
  replyToTicket: { userId: 1, ticketId: 1, message: "Thanks" },
  reports: { dates: { start: "2026-01-01", end: "2026-01-15" } },
  reportSeries: { dates: { start: "2026-01-01", end: "2026-01-15" } },
  metering: { token_id: "t", factor: 1, rnd: "r" },
  analytics,
  healthEvents: { events: [healthEvent] },
  endConnection: { id: 1 },
  streamAccess: { grant: "g1.a.b" },
  endStream: { id: 1 },
  closeStream: { grant: "g1.a.b" },
  createReminder: { streamId: 1, startTime: "2026-01-16T20:00:00.000Z", leadMinutes: 10, timeZone: "Europe/Oslo" }
}
type BodyEndpoint = keyof typeof VALID_BODY

const VALID_PARAMS: Partial<Record<EndpointName, Record<string, string>>> = {
  invitation: { token: "unknown" },
  schedule: { id: "2026-01-15" },
  guideWindow: { streamId: "1" },
  deleteReminder: { id: "1" },
  analytics: { videoType: "live", siteGroupId: "streamhub", event: "view" }
}

/** Path parameters the router matches but the contract's schema refuses. */
const BAD_PARAMS: Partial<Record<EndpointName, ReadonlyArray<Record<string, string>>>> = {
  schedule: [{ id: "tomorrow" }, { id: "2026-1-15" }, { id: "15.01.2026" }],
  guideWindow: [{ streamId: "one" }, { streamId: "0" }, { streamId: "-1" }, { streamId: "12345678901" }],
  deleteReminder: [{ id: "one" }, { id: "0" }, { id: "-1" }, { id: "1.5" }],
  analytics: [
    { ...VALID_PARAMS.analytics, videoType: "hls" },
    { ...VALID_PARAMS.analytics, event: "click" },
    { ...VALID_PARAMS.analytics, videoType: "LIVE", event: "" }
  ]
}

const ROLES = ["anonymous", "customer", "staff"] as const
type Role = (typeof ROLES)[number]
const allowed = (name: EndpointName, role: Role): boolean =>
  api[name].access === "anyone" || (api[name].access === "user" ? role !== "anonymous" : role === "staff")

/** What the server must answer: a status, and the detail when it is known exactly. */
interface Expected {
  readonly status: number
  readonly detail?: string
}

/**
 * Where the request is turned away: the JSON parser (which reads bodies sent to unknown paths
 * too), the router reading the URL, or the route itself (content type, access, then decoding).
 * Contract entries without a handler yet answer a JSON 404 at the route stage.
 */
type Stage = "json" | "url" | "route"

interface BadRequest {
  readonly label: string
  readonly stage: Stage
  readonly payload?: string
  /** Sent as is, for URLs that no params object can produce. */
  readonly rawUrl?: string
  readonly contentType?: string
  readonly params?: Record<string, string>
  readonly expected: (role: Role) => Expected
}

/** What the contract's decoder says about a JSON value sent as the body, as the server reads it. */
const decodeDetail = (name: BodyEndpoint, value: unknown): string | undefined => {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return NOT_AN_OBJECT
  const body = api[name].body
  const result = decodeWith(body)(value)
  return result.ok ? undefined : result.detail
}

/** A beacon's plain-text body goes straight to the decoder. */
const plainTextDetail = (name: BodyEndpoint, value: unknown): string => {
  const result = decodeWith(api[name].body)(value)
  if (result.ok) throw new Error(`${name} accepts ${JSON.stringify(value)}`)
  return result.detail
}

const WRONG_VALUES: ReadonlyArray<readonly [string, unknown]> = [
  ["null", null],
  ["a number", 12345],
  ["a string", "text"],
  ["a boolean", true],
  ["an array", []],
  ["an object", {}],
  ["a huge string", HUGE]
]

/** Bodies the endpoint's schema refuses: each field wrong or missing, and bodies that are not objects. */
function badBodies(name: BodyEndpoint): BadRequest[] {
  const valid = VALID_BODY[name]
  const candidates: Array<readonly [string, unknown]> = [
    ["null", null],
    ["an array", []],
    ["an array of the valid body", [valid]],
    ["a string", "text"],
    ["a number", 42],
    ["a boolean", false],
    ["a huge string", HUGE]
  ]
  for (const field of Object.keys(valid)) {
    const { [field]: _, ...missing } = valid
    candidates.push([`without ${field}`, missing])
    for (const [what, value] of WRONG_VALUES) candidates.push([`${field} as ${what}`, { ...valid, [field]: value }])
  }
  const bad: BadRequest[] = []
  for (const [label, value] of candidates) {
    const detail = decodeDetail(name, value)
    // A change the schema still accepts (an optional field left out, a string where any string
    // goes) is a valid request, which might rightly store something: not this test's business.
    if (detail === undefined) continue
    bad.push({
      label,
      stage: "route",
      payload: JSON.stringify(value),
      expected: (role) => (allowed(name, role) ? { status: 400, detail } : { status: 403 })
    })
  }
  return bad
}

/** Requests the body parsers turn away, whoever sends them and wherever they go. */
function badTransport(name: BodyEndpoint): BadRequest[] {
  const beacon = name === "healthEvents" || name === "closeStream"
  const malformed = { status: 400, detail: MALFORMED_JSON }
  return [
    ...['{"email":', "nope", "{'single': 'quotes'}", '{"a":1,}', "[1, 2", "\u0000"].map((payload) => ({
      label: `malformed JSON ${JSON.stringify(payload)}`,
      stage: "json" as const,
      payload,
      expected: () => malformed
    })),
    {
      label: "an empty JSON body",
      stage: "route",
      payload: "",
      expected: (role: Role) => (allowed(name, role) ? { status: 400, detail: NOT_AN_OBJECT } : { status: 403 })
    },
    {
      label: "a form body",
      stage: "route",
      payload: "email=a%40b.co",
      contentType: "application/x-www-form-urlencoded",
      expected: () => ({ status: 415 })
    },
    { label: "an XML body", stage: "route", payload: "<login/>", contentType: "application/xml", expected: () => ({ status: 415 }) },
    {
      label: "a multipart body",
      stage: "route",
      payload: "--b\r\n\r\nx\r\n--b--",
      contentType: "multipart/form-data; boundary=b",
      expected: () => ({ status: 415 })
    },
    {
      label: "an array as text/plain",
      stage: "route",
      payload: JSON.stringify([VALID_BODY[name]]),
      contentType: "text/plain",
      // Only beacon endpoints read plain text, as the JSON it should be; elsewhere it is a 415.
      expected: (role: Role) =>
        !allowed(name, role)
          ? { status: 403 }
          : beacon
            ? { status: 400, detail: plainTextDetail(name, [VALID_BODY[name]]) }
            : { status: 415 }
    },
    {
      label: "malformed JSON as text/plain",
      stage: "route",
      payload: '{"events": [',
      contentType: "text/plain",
      expected: (role: Role) => (!allowed(name, role) ? { status: 403 } : beacon ? malformed : { status: 415 })
    },
    {
      label: "a body over the size limit",
      stage: "json",
      payload: JSON.stringify({ ...VALID_BODY[name], padding: "x".repeat(DEFAULT_BODY_LIMIT) }),
      expected: () => ({ status: 413 })
    }
  ]
}

function badParams(name: EndpointName): BadRequest[] {
  const valid = VALID_PARAMS[name]
  if (valid === undefined) return []
  const body = name in VALID_BODY ? { payload: JSON.stringify(VALID_BODY[name as BodyEndpoint]) } : {}
  const keys = Object.keys(valid)
  // GET paths fall through to the site's catch-all route, a JSON 404 under /api; POST paths have
  // no such fallback, so the router's length limit is what answers.
  const tooLong = api[name].method === "GET" ? { status: 404 } : { status: 414, detail: "Request URL is too long" }
  return [
    ...(BAD_PARAMS[name] ?? []).map((params) => ({
      label: `params ${JSON.stringify(params)}`,
      stage: "route" as const,
      params,
      ...body,
      expected: (role: Role) => (allowed(name, role) ? { status: 400 } : { status: 403 })
    })),
    ...keys.flatMap((key) => [
      {
        label: `a huge ${key}`,
        stage: "url" as const,
        params: { ...valid, [key]: "x".repeat(600) },
        ...body,
        expected: () => tooLong
      },
      {
        label: `a ${key} with broken percent-encoding`,
        stage: "url" as const,
        rawUrl: api[name].path.replace(/\{(\w+)\}/g, (_, k: string) => (k === key ? "%E0%A4%A" : encodeURIComponent(valid[k] ?? ""))),
        ...body,
        expected: () => ({ status: 400, detail: "Malformed URL" })
      }
    ])
  ]
}

/** Every stored row a refused request could have touched (sessions only by count: sign-ins see last use). */
async function storedData(db: Db) {
  const k = db.kysely
  const counts = await tableCounts(db)
  for (const table of [
    "invitations",
    "outbox",
    "one_time_tokens",
    "password_reset_requests",
    "player_connections",
    "analytics_events",
    "health_events",
    "metering"
  ] as const) {
    const row = await k
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow()
    counts[table] = Number(row.n)
  }
  return {
    counts,
    users: await k.selectFrom("users").selectAll().orderBy("id").execute(),
    streams: await k.selectFrom("streams").selectAll().orderBy("id").execute(),
    tickets: await k.selectFrom("tickets").selectAll().orderBy("id").execute(),
    settings: await k.selectFrom("settings").selectAll().orderBy("key").execute()
  }
}

const checkFailure = decodeWith(ApiFailure)

function expectFailure(response: LightMyRequestResponse, expected: Expected, what: string): void {
  const context = `${what} answered ${response.statusCode} ${response.body.slice(0, 300)}`
  expect(response.statusCode, context).toBeLessThan(500)
  expect(response.headers["content-type"], context).toMatch(/^application\/json/)
  expect(response.statusCode, context).toBe(expected.status)
  if (expected.status === 200) return
  const body: unknown = response.json()
  expect(checkFailure(body), context).toMatchObject({ ok: true })
  const failure = body as ApiFailure
  expect(failure.status, context).toBe(response.statusCode)
  expect(failure.detail.trim(), context).not.toBe("")
  if (expected.status === 400) expect(failure.resultCode, context).toBe(19)
  if (expected.detail !== undefined) expect(failure.detail, context).toBe(expected.detail)
}

const BODY_ENDPOINTS = Object.keys(VALID_BODY) as BodyEndpoint[]
const PARAM_ENDPOINTS = Object.keys(VALID_PARAMS) as EndpointName[]
const SWEPT = [...new Set<EndpointName>([...BODY_ENDPOINTS, ...PARAM_ENDPOINTS])]

describe("the bad-input sweep", () => {
  it("covers every contract entry with a body or path parameters", () => {
    const expected = (Object.keys(api) as EndpointName[]).filter((name) => api[name].body !== undefined || api[name].params !== undefined)
    expect([...SWEPT].sort()).toEqual(expected.sort())
    for (const name of PARAM_ENDPOINTS)
      expect(Object.keys(VALID_PARAMS[name] ?? {}).sort(), name).toEqual(Object.keys(api[name].params?.fields ?? {}).sort())
  })

  it.each(BODY_ENDPOINTS)("starts %s from a body its schema accepts, and finds bad ones for every field", (name) => {
    expect(decodeWith(api[name].body)(VALID_BODY[name])).toMatchObject({ ok: true })
    const labels = badBodies(name).map((request) => request.label)
    for (const field of Object.keys(VALID_BODY[name])) {
      expect(
        labels.some((label) => label.startsWith(`${field} as `)),
        `${name}.${field}`
      ).toBe(true)
    }
  })
})

describe.each(dialects)("bad input on every endpoint ($name)", (dialect) => {
  let server: TestServer
  const tokens: Partial<Record<Role, string>> = {}

  beforeAll(async () => {
    server = await startTestServer(dialect)
    await server.addUser({ email: "customer@example.com" })
    await server.addUser({ email: "staff@example.com", staff: true })
    tokens.customer = await server.signIn("customer@example.com")
    tokens.staff = await server.signIn("staff@example.com")
  })
  afterAll(() => server.dispose())

  describe.each(SWEPT)("%s", (name) => {
    const endpoint = api[name]
    const requests = [
      ...(name in VALID_BODY ? [...badBodies(name as BodyEndpoint), ...badTransport(name as BodyEndpoint)] : []),
      ...badParams(name)
    ]

    it.each(ROLES)("as %s: 4xx JSON every time, nothing stored", async (role) => {
      const routed = server.app.hasRoute({ method: endpoint.method, url: routePath(endpoint.path) })
      const before = await storedData(server.db)
      for (const request of requests) {
        const token = tokens[role]
        const response = await server.app.inject({
          method: endpoint.method,
          url: request.rawUrl ?? buildPath(endpoint.path, request.params ?? VALID_PARAMS[name]),
          // a fresh address each time: the per-address limits are not what is tested here
          remoteAddress: nextIp(),
          headers: {
            ...(token === undefined ? {} : { token }),
            ...(request.payload === undefined ? {} : { "content-type": request.contentType ?? "application/json" })
          },
          ...(request.payload === undefined ? {} : { payload: request.payload })
        })
        const expected = routed || request.stage !== "route" ? request.expected(role) : { status: 404 }
        expectFailure(response, expected, `${name} as ${role} with ${request.label}`)
      }
      expect(await storedData(server.db)).toEqual(before)
    })
  })
})

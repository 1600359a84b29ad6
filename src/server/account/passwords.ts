import { argon2, randomBytes, timingSafeEqual } from "node:crypto"

// OWASP's argon2id baseline: 19 MiB, 2 passes, 1 lane. The parameters are stored in every hash,
// so raising them later still verifies old hashes; but old hashes would then verify in another
// time than the dummy below, which would tell the emails of accounts not yet rehashed apart from
// unknown ones. Change them only together with a rehash at sign-in and a dummy for each setting.
const PARAMETERS = { memory: 19456, passes: 2, parallelism: 1 } as const
const NONCE_BYTES = 16
const TAG_BYTES = 32

interface Phc {
  readonly memory: number
  readonly passes: number
  readonly parallelism: number
  readonly nonce: Buffer
  readonly tag: Buffer
}

// argon2 holds 19 MiB and a core for tens of milliseconds, on a thread of libuv's pool. There
// file reads (the app's static files, the database's) and compression run too, and a burst of
// sign-ins would take every thread and core: so hashes run one at a time, in arrival order. The
// pool has one thread more than libuv's default (main.ts), so the rest keeps its four, and
// the server its other core. (A worker thread of its own costs a second V8 isolate, ~18 MB, for
// as long as it lives.) `npm start` has malloc serve blocks of 1 MiB or more straight from the
// system, so a hash's 19 MiB go back when it is done instead of staying in an arena.
let lane: Promise<unknown> = Promise.resolve()
const derive = (password: string, nonce: Buffer, params: Omit<Phc, "nonce" | "tag">, tagLength: number): Promise<Buffer> => {
  const hashed = lane.then(() => new Promise<Buffer>((resolve, reject) =>
    argon2("argon2id", { message: password, nonce, tagLength, ...params }, (error, key) => (error === null ? resolve(key) : reject(error)))))
  lane = hashed.catch(() => undefined)
  return hashed
}

// PHC strings use unpadded standard base64.
const b64 = (bytes: Buffer): string => bytes.toString("base64").replace(/=+$/, "")

/** `$argon2id$v=19$m=19456,t=2,p=1$<salt>$<hash>` */
export async function hashPassword(password: string): Promise<string> {
  const nonce = randomBytes(NONCE_BYTES)
  const tag = await derive(password, nonce, PARAMETERS, TAG_BYTES)
  const { memory, passes, parallelism } = PARAMETERS
  return `$argon2id$v=19$m=${memory},t=${passes},p=${parallelism}$${b64(nonce)}$${b64(tag)}`
}

const PHC = /^\$argon2id\$v=19\$m=(\d+),t=(\d+),p=(\d+)\$([A-Za-z0-9+/]+)\$([A-Za-z0-9+/]+)$/

function parsePhc(hash: string): Phc | undefined {
  const match = PHC.exec(hash)
  if (match === null) return undefined
  const [, m, t, p, salt, tag] = match
  return {
    memory: Number(m),
    passes: Number(t),
    parallelism: Number(p),
    nonce: Buffer.from(salt ?? "", "base64"),
    tag: Buffer.from(tag ?? "", "base64")
  }
}

/** False for a wrong password and for a hash this server cannot read. */
export async function verifyPassword(password: string, hash: string): Promise<boolean> {
  const phc = parsePhc(hash)
  if (phc === undefined || phc.tag.length < 16) return false
  const { memory, passes, parallelism } = phc
  // parameters argon2 refuses (a salt too short, less memory than its lanes need) are no hash it can read
  const candidate = await derive(password, phc.nonce, { memory, passes, parallelism }, phc.tag.length).catch(() => undefined)
  return candidate !== undefined && timingSafeEqual(candidate, phc.tag)
}

let dummyHash: Promise<string> | undefined

/**
 * Costs what a real verification costs, so a sign-in for an unknown email takes as long as one
 * with a wrong password and response times do not reveal which emails have accounts.
 */
export async function verifyAgainstDummy(password: string): Promise<false> {
  dummyHash ??= hashPassword(randomBytes(16).toString("hex"))
  await verifyPassword(password, await dummyHash)
  return false
}

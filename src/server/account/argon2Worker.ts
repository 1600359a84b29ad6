import { argon2Sync } from "node:crypto"

export interface Argon2Task {
  readonly password: string
  readonly nonce: Uint8Array
  readonly memory: number
  readonly passes: number
  readonly parallelism: number
  readonly tagLength: number
}

/** Runs in the hashing pool's threads (see passwords.ts), never on the server's own. */
export default function derive({ password, nonce, memory, passes, parallelism, tagLength }: Argon2Task): Uint8Array {
  return argon2Sync("argon2id", { message: password, nonce, memory, passes, parallelism, tagLength })
}

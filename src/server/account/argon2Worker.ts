import { argon2Sync } from "node:crypto"
import { setPriority } from "node:os"

// On Linux a thread has its own nice value, and 0 names the calling thread: hashing yields the
// CPU to the server's own thread, so a burst of sign-ins does not slow every other request.
try {
  setPriority(0, 19)
} catch {
  // not allowed here: hashing runs at the server's priority
}

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

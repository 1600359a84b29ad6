import { enableCompileCache } from "node:module"

// Loading and compiling the server's modules is most of a cold start; V8's code cache (kept in
// the OS temp dir, or NODE_COMPILE_CACHE) lets every start after the first skip the compiling.
// Only a dynamic import comes after this line: static ones would load before it ran.
enableCompileCache()
// libuv's pool starts with its first task, after this line: one thread more than its default four
// for password hashing, which holds at most one (see account/passwords.ts). An operator's own
// setting stands.
process.env.UV_THREADPOOL_SIZE ??= "5"
await import("./serve.ts")

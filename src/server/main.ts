import { enableCompileCache } from "node:module"

// Loading and compiling the server's modules is most of a cold start; V8's code cache (kept in
// the OS temp dir, or NODE_COMPILE_CACHE) lets every start after the first skip the compiling.
// Only a dynamic import comes after this line: static ones would load before it ran.
enableCompileCache()
await import("./serve.ts")

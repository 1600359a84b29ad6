import { type KickoffScope, kickoff } from "../adapters/http/kickoff.ts"

// Inlined into index.html by the build (vite.config.ts), so it runs while the page is still
// being parsed: a player page's start-up calls go out before the app's first script arrives.
kickoff(window as unknown as KickoffScope)

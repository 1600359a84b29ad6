import { configure } from "@testing-library/react"
import { WAIT_MS } from "./timeouts.ts"

// The ui tests render the real app over the real server in-process, and a page's first render
// imports its route's modules: on a busy machine that takes far longer than Testing Library's
// default second. Waits end as soon as what they wait for is there.
configure({ asyncUtilTimeout: WAIT_MS })

import { configure } from "@testing-library/react"

// The ui tests render the real app over the real server in-process, and a page's first render
// imports its route's modules: on a machine busy with the browser tests beside them that takes
// longer than Testing Library's default second. Waits end as soon as what they wait for is there.
configure({ asyncUtilTimeout: 5_000 })

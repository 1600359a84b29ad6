import { NETWORK_FAILURE_DETAIL } from "../../src/adapters/http/http.ts"
import { type Answer, answered, unreachable } from "../../src/domain/contract/answer.ts"
import type { EndpointName, ResponseOf } from "../../src/domain/contract/api.ts"

/** What a test has a fake call answer: a body the server sent, or an answer as the http adapter makes it. */
export type Reply<N extends EndpointName> = Answer<N> | ResponseOf<N>

/** The answer the http adapter would give: a bare body is the server's ok answer. */
export const toAnswer = <N extends EndpointName>(reply: Reply<N>): Answer<N> =>
  typeof reply === "object" && reply !== null && "_tag" in reply ? (reply as Answer<N>) : (answered(reply) as Answer<N>)

/** No connection: what the http adapter answers when the request never reached the server. */
export const OFFLINE = unreachable("network", NETWORK_FAILURE_DETAIL)

import { fromCallback, fromPromise } from "xstate"
import type { Answer } from "../../src/domain/contract/answer.ts"
import type { EndpointName } from "../../src/domain/contract/api.ts"
import { Stream } from "../../src/domain/Stream.ts"
import { UserInfo } from "../../src/domain/User.ts"

export const stream = (fields: Partial<Stream> & Pick<Stream, "id" | "title">): Stream =>
  new Stream({
    src: `/live/${fields.id}/index.m3u8`,
    src_sldp: `/live/${fields.id}/ll.m3u8`,
    image_location: `/images/${fields.id}.jpg`,
    tags: "",
    tags_sldp: "",
    maintenance_mode: false,
    ...fields
  })

/** One stream for each way choosing can go (SPEC §4). */
export const streams = [
  stream({ id: 1, title: "Under maintenance", maintenance_mode: true }),
  stream({ id: 2, title: "Subscribers only", src: null, src_sldp: null }),
  stream({ id: 3, title: "Sports One" }),
  stream({ id: 4, title: "Sports Two", src_sldp: null })
]

export const user = new UserInfo({
  email: "ann@example.com",
  username: "ann",
  is_staff: false,
  userRewardPoints: 0,
  pricePerRewardPoint: 1
})

/** A fake call of one endpoint, answering as the http adapter would (it never rejects): each answer in turn, the last one from then on. */
export const answers = <N extends EndpointName>(_endpoint: N, ...results: Array<Answer<N>>) =>
  fromPromise<Answer<N>>(async () => {
    const result = results.length > 1 ? results.shift() : results[0]
    if (result === undefined) throw new Error(`no answer given for ${_endpoint}`)
    return result
  })

/** The http adapter's 403s as the session watches them: `forbid()` is a call meeting a 403. */
export const fakeForbidden = () => {
  const listeners = new Set<() => void>()
  return {
    watchForbidden: fromCallback(({ sendBack }) => {
      const listener = () => sendBack({ type: "session.expired" })
      listeners.add(listener)
      return () => listeners.delete(listener)
    }),
    forbid: () => {
      for (const listener of listeners) listener()
    },
    watching: () => listeners.size
  }
}

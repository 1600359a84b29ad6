import { fromPromise } from "xstate"
import { auditLogMachine } from "../machines/audit/auditLogMachine.ts"
import type { FeatureWiring } from "./featureWiring.ts"

/** The staff's audit log page, wired to the audit log call: filters and the page's start go in the query. */
export const createAudit = ({ callApi }: FeatureWiring) => ({
  auditLog: auditLogMachine.provide({
    actors: {
      loadPage: fromPromise(({ input, signal }) =>
        callApi("auditLog", {
          query: {
            ...(input.actor === "" ? {} : { actor: input.actor }),
            ...(input.action === "" ? {} : { action: input.action }),
            ...(input.before === null ? {} : { before: String(input.before) })
          },
          signal
        })
      )
    }
  })
})

import { fromPromise } from "xstate"
import { adminReportsMachine } from "../machines/reports/adminReportsMachine.ts"
import type { FeatureWiring } from "./featureWiring.ts"
import { notifyVia } from "./notifyVia.ts"

/** The staff reports page, wired to the reports, daily series and connections calls and the notifications. */
export const createReports = ({ callApi, notifications }: FeatureWiring) => ({
  adminReports: adminReportsMachine.provide({
    actors: {
      loadReports: fromPromise(async ({ input, signal }) => {
        const body = { dates: input }
        const [reports, series] = await Promise.all([callApi("reports", { body, signal }), callApi("reportSeries", { body, signal })])
        return { reports, series }
      }),
      loadConnections: fromPromise(({ input, signal }) => callApi("connections", { query: { page: String(input.page) }, signal })),
      endConnection: fromPromise(({ input, signal }) => callApi("endConnection", { body: { id: input.id }, signal }))
    },
    actions: {
      notify: notifyVia(notifications)
    }
  })
})

import { ReportRange, ReportSeries, Reports } from "../Reports.ts"
import { endpoint } from "./endpoint.ts"

/** Staff's subscriber and revenue figures over a range of UTC days. */
export const reportsContract = {
  reports: endpoint({
    method: "POST",
    path: "/api/adminreports/all",
    body: ReportRange,
    response: Reports,
    access: "staff",
    summary: "Subscriber and revenue reports; the range's days are UTC days"
  }),
  reportSeries: endpoint({
    method: "POST",
    path: "/api/adminreports/daily",
    body: ReportRange,
    response: ReportSeries,
    access: "staff",
    summary: "The range's figures per UTC day, its totals and those of the period before it"
  })
} as const

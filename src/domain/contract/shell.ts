import { Announcement } from "../Announcement.ts"
import { MaintenanceStatus } from "../Maintenance.ts"
import { SiteSettings } from "../SiteSettings.ts"
import { MAINTENANCE_ROUTE } from "../startupRoutes.ts"
import { dataResponse, endpoint } from "./endpoint.ts"

export const SiteSettingsResponse = dataResponse(SiteSettings)

/** What every page asks first: maintenance, the site's settings, the latest announcement. */
export const shellContract = {
  maintenance: endpoint({ ...MAINTENANCE_ROUTE, response: MaintenanceStatus, access: "anyone", summary: "Maintenance status" }),
  siteSettings: endpoint({
    method: "GET",
    path: "/api/site-settings",
    response: SiteSettingsResponse,
    access: "anyone",
    summary: "Site settings"
  }),
  announcement: endpoint({
    method: "GET",
    path: "/api/announcement/latest",
    response: Announcement,
    access: "user",
    summary: "The latest announcement"
  })
} as const

import { isTimeZone } from "../../domain/Schedule.ts"

/** The viewer's IANA zone; UTC where the runtime has none to tell (the server's default too). */
export const viewerTimeZone = (): string => {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone
  return typeof zone === "string" && isTimeZone(zone) ? zone : "UTC"
}

import { randomBytes } from "node:crypto"
import { audit } from "../audit/auditFeature.ts"
import { type Command, requireText } from "../cli/command.ts"
import { insertAnnouncement } from "./announcementsRepo.ts"
import { setMaintenance } from "./maintenanceRepo.ts"

export const maintenanceOn: Command = {
  name: "maintenance:on",
  usage: "--title T --first X --second Y",
  summary: "Show only a maintenance notice to every visitor",
  options: { title: { type: "string" }, first: { type: "string" }, second: { type: "string" } },
  async run(args, { db, out, now, operator }) {
    const title = requireText(args, "title")
    const first = requireText(args, "first")
    const second = requireText(args, "second")
    const at = now()
    await db.transaction().execute(async (trx) => {
      await setMaintenance(
        trx,
        { maintenance_mode: true, title, first_row_text: first, second_row_text: second },
        new Date(at).toISOString()
      )
      await audit.record(
        trx,
        audit.operator(operator),
        { action: "maintenance.on", target: "site", detail: JSON.stringify({ title, first, second }) },
        at
      )
    })
    out(`Maintenance mode is ON: ${title}`)
    return 0
  }
}

export const maintenanceOff: Command = {
  name: "maintenance:off",
  usage: "",
  summary: "Turn the maintenance notice off",
  options: {},
  async run(_args, { db, out, now, operator }) {
    const at = now()
    await db.transaction().execute(async (trx) => {
      await setMaintenance(trx, { maintenance_mode: false }, new Date(at).toISOString())
      await audit.record(trx, audit.operator(operator), { action: "maintenance.off", target: "site" }, at)
    })
    out("Maintenance mode is OFF")
    return 0
  }
}

export const announce: Command = {
  name: "announce",
  usage: "--title T --text X",
  summary: "Publish an announcement (shown once to each signed-in browser)",
  options: { title: { type: "string" }, text: { type: "string" } },
  async run(args, { db, out, now, operator }) {
    const title = requireText(args, "title")
    const text = requireText(args, "text")
    // A new token is what makes browsers that dismissed the previous announcement show this one.
    const token = randomBytes(9).toString("base64url")
    const at = now()
    await db.transaction().execute(async (trx) => {
      const announcement = await insertAnnouncement(trx, { token, title, text, created_at: new Date(at).toISOString() })
      await audit.record(
        trx,
        audit.operator(operator),
        { action: "announcement.set", target: `announcement ${announcement.id}`, detail: JSON.stringify({ title, text }) },
        at
      )
    })
    out(`Announcement published: ${title} (token ${token})`)
    return 0
  }
}

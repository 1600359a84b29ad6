import { describe, expect, it } from "vitest"
import { latestAnnouncement } from "../../../src/server/shell/announcementsRepo.ts"
import { getMaintenance } from "../../../src/server/shell/maintenanceRepo.ts"
import { getSettings } from "../../../src/server/shell/settingsRepo.ts"
import { useAdmin } from "../../support/cliHarness.ts"
import { dialects } from "../../support/dbHarness.ts"

describe.each(dialects)("maintenance, announcement and settings commands of the operator CLI ($name)", (dialect) => {
  const cli = useAdmin(dialect)

  it("switches maintenance mode and publishes announcements", async () => {
    expect((await cli.admin("maintenance:on", "--title", "Upgrade", "--first", "We are upgrading", "--second", "Back at 20:00")).code).toBe(
      0
    )
    expect(await getMaintenance(cli.database.db.kysely)).toEqual({
      maintenance_mode: true,
      title: "Upgrade",
      first_row_text: "We are upgrading",
      second_row_text: "Back at 20:00"
    })
    expect((await cli.admin("maintenance:off")).code).toBe(0)
    expect(await getMaintenance(cli.database.db.kysely)).toMatchObject({ maintenance_mode: false, title: "Upgrade" })
    expect((await cli.admin("maintenance:on", "--title", "x")).code).toBe(2)

    expect((await cli.admin("announce", "--title", "Final", "--text", "Tonight at 9")).code).toBe(0)
    const first = await latestAnnouncement(cli.database.db.kysely)
    expect(first).toMatchObject({ title: "Final", text: "Tonight at 9" })
    await cli.admin("announce", "--title", "Second", "--text", "Another")
    expect((await latestAnnouncement(cli.database.db.kysely))?.token).not.toBe(first?.token)
  })

  it("sets and shows site settings with their types", async () => {
    expect((await cli.admin("settings:set", "--key", "pricePerRewardPoint", "--value", "0.25")).code).toBe(0)
    expect((await cli.admin("settings:set", "--key", "siteName", "--value", "Match Night")).code).toBe(0)
    expect(await getSettings(cli.database.db.kysely)).toMatchObject({ pricePerRewardPoint: 0.25, siteName: "Match Night" })
    const shown = await cli.admin("settings:get")
    expect(shown.output).toContain("pricePerRewardPoint = 0.25")
    expect(shown.output).toContain('siteName = "Match Night"')
    expect(shown.output).toContain('chatUrl = "https://discord.com/" (default)')
  })

  it('takes the support address as mail carries it, or "" for none', async () => {
    expect(await cli.admin("settings:set", "--key", "supportEmail", "--value", " Help@Bücher.de ")).toEqual({
      code: 0,
      output: 'supportEmail = "help@xn--bcher-kva.de"'
    })
    const refused = await cli.admin("settings:set", "--key", "supportEmail", "--value", "help desk")
    expect(refused.code).toBe(2)
    expect(refused.output.split("\n")[0]).toBe(
      'settings:set: --value: supportEmail must be an email address such as support@example.com, or "" for none (got "help desk")'
    )
    expect((await cli.admin("settings:set", "--key", "supportEmail", "--value", "")).code).toBe(0)
    expect((await cli.admin("settings:get")).output).toContain('supportEmail = ""')
  })

  it("takes only http(s) addresses for the URL settings, saying so in one line", async () => {
    for (const [key, value] of [
      ["chatUrl", "javascript:alert(document.cookie)"],
      ["scheduleUrl", "data:text/html,<script>alert(1)</script>"],
      ["guideUrl", "file:///etc/passwd"],
      ["scheduleUrl", ""],
      ["chatUrl", "discord.gg/abc"]
    ]) {
      const { code, output } = await cli.admin("settings:set", "--key", key ?? "", "--value", value ?? "")
      expect(code, `${key} ${value}`).toBe(2)
      expect(output.split("\n")[0]).toBe(
        `settings:set: --value: ${key} must be an http(s) URL${key === "scheduleUrl" ? "" : ', or "" for none'} (got "${value}")`
      )
    }
    expect(await getSettings(cli.database.db.kysely)).toEqual({})
    expect((await cli.admin("settings:set", "--key", "chatUrl", "--value", " https://chat.example.com/invite ")).code).toBe(0)
    expect((await cli.admin("settings:set", "--key", "chatUrl", "--value", "")).code).toBe(0)
    expect((await cli.admin("settings:set", "--key", "scheduleUrl", "--value", "http://tv.example.com/schedule")).code).toBe(0)
    expect(await getSettings(cli.database.db.kysely)).toEqual({ chatUrl: "", scheduleUrl: "http://tv.example.com/schedule" })
  })
})

import { audit } from "../audit/auditFeature.ts"
import { type Command, CommandFailure, isLocation, optionalText, table, UsageError } from "../cli/command.ts"
import { siteSettings } from "../shell/shellFeature.ts"
import { streams } from "../streams/streamsFeature.ts"
import { guideChannelRows } from "./guideQueries.ts"
import { describeSource, type GuideSource, guideText } from "./guideSource.ts"
import { importGuide } from "./importGuide.ts"
import { describeFailure, describeImport, describeProgress } from "./importReport.ts"

/** At most this often, so a fast import does not flood a terminal or a log. */
const PROGRESS_EVERY_MS = 250

const isWebUrl = (text: string): boolean => isLocation(text) && !text.startsWith("/")

export const guideImport: Command = {
  name: "guide:import",
  usage: "--file F | --url U",
  summary:
    "Import an XMLTV guide (plain or gzip), replacing the time window it covers on each of its channels; " +
    "with neither option, the site setting guideUrl",
  options: { file: { type: "string" }, url: { type: "string" } },
  async run(args, { db, out, err, now, operator }) {
    const file = optionalText(args, "file")
    const url = optionalText(args, "url")
    if (file !== undefined && url !== undefined) throw new UsageError("give --file or --url, not both")
    let source: GuideSource
    if (file !== undefined) {
      if (file.trim() === "") throw new UsageError("--file must name a file")
      source = { file }
    } else {
      const fromSetting = url === undefined
      const location = (url ?? (await siteSettings.inEffect(db)).guideUrl).trim()
      if (fromSetting && location === "") throw new UsageError("give --file F or --url U, or set the site setting guideUrl")
      if (!isWebUrl(location))
        throw new UsageError(`${fromSetting ? "the site setting guideUrl" : "--url"} must be an http(s) URL (got "${location}")`)
      source = { url: location }
    }

    // `\r` marks a status line: a terminal overwrites it in place, anything else gets plain lines
    const started = performance.now()
    let shownAt = started
    const onProgress = (progress: { programmes: number; channels: number }) => {
      const at = performance.now()
      if (at - shownAt < PROGRESS_EVERY_MS) return
      shownAt = at
      err(`\r${describeProgress(progress, at - started)}`)
    }
    try {
      const at = now()
      // the address without the credentials a provider's may carry
      const from = "file" in source ? `file ${source.file}` : audit.withoutSecrets(source.url)
      const result = await importGuide(db, guideText(source), {
        now: at,
        onProgress,
        alongside: (trx, imported) =>
          audit.record(
            trx,
            audit.operator(operator),
            {
              action: "guide.import",
              target: "guide",
              detail: `${imported.programmes} programmes on ${imported.channels} channels from ${from}`
            },
            at
          )
      })
      out(describeImport(result, describeSource(source), performance.now() - started))
      return 0
    } catch (error) {
      throw new CommandFailure(`${describeFailure(error, describeSource(source))}; the guide is unchanged`)
    }
  }
}

export const guideChannels: Command = {
  name: "guide:channels",
  usage: "",
  summary: "List the guide's channels: XMLTV id (for stream:set --epg-id), name, streams tied to it, programmes",
  options: {},
  async run(_args, { db, out }) {
    const [channels, all] = await Promise.all([guideChannelRows(db), streams.list(db)])
    if (channels.length === 0) {
      out("No guide channels yet: import one with guide:import")
      return 0
    }
    const tied = (id: string) =>
      all
        .filter((s) => s.epg_channel_id === id)
        .map((s) => `${s.id} ${s.title}`)
        .join(", ")
    out(
      table(
        ["epg id", "name", "source", "streams", "programmes", "until"],
        channels.map((c) => [
          c.id,
          c.name,
          c.source,
          tied(c.id) || "-",
          String(c.programmes),
          c.until?.slice(0, 16).replace("T", " ") ?? "-"
        ])
      )
    )
    const orphans = all.filter((s) => s.epg_channel_id !== null && !channels.some((c) => c.id === s.epg_channel_id))
    for (const stream of orphans)
      out(`Stream ${stream.id} (${stream.title}) names epg id "${stream.epg_channel_id}", which no guide has yet`)
    return 0
  }
}

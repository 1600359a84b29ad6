import { audit } from "../audit/auditFeature.ts"
import { type Command, normaliseTags, optionalText, requireId, requireText, UsageError } from "../cli/command.ts"
import { epgId, mustHaveFound, optionalLocation, STREAM_OPTIONS } from "./streamOptions.ts"
import { type StreamChanges, updateStream } from "./streamsRepo.ts"

export const streamSet: Command = {
  name: "stream:set",
  usage: "--id N [--title T] [--src URL] [--src-sldp URL] [--image URL] [--tags a,b] [--tags-sldp a,b] [--epg-id X]",
  summary: 'Change a stream: only the options given change; "" clears one (--epg-id "" unties it from the guide)',
  options: { id: { type: "string" }, ...STREAM_OPTIONS },
  async run(args, { db, out, now, operator }) {
    const id = requireId(args)
    const changes: StreamChanges = {
      ...(args.title === undefined ? {} : { title: requireText(args, "title").trim() }),
      ...(args.src === undefined ? {} : { src: optionalLocation(args, "src") }),
      ...(args["src-sldp"] === undefined ? {} : { src_sldp: optionalLocation(args, "src-sldp") }),
      ...(args.image === undefined ? {} : { image_location: optionalLocation(args, "image") ?? "" }),
      ...(args.tags === undefined ? {} : { tags: normaliseTags(optionalText(args, "tags")) }),
      ...(args["tags-sldp"] === undefined ? {} : { tags_sldp: normaliseTags(optionalText(args, "tags-sldp")) }),
      ...(args["epg-id"] === undefined ? {} : { epg_channel_id: epgId(args) })
    }
    const names = Object.keys(changes)
    if (names.length === 0) throw new UsageError("give at least one field to change")
    const said = (name: string): string => `${name} = ${JSON.stringify(changes[name as keyof StreamChanges])}`
    const logged = (name: string): string => {
      const value = changes[name as keyof StreamChanges]
      return `${name} = ${JSON.stringify(typeof value === "string" ? audit.withoutSecrets(value) : value)}`
    }
    await db.transaction().execute(async (trx) => {
      mustHaveFound(await updateStream(trx, id, changes), id)
      await audit.record(
        trx,
        audit.operator(operator),
        { action: "stream.set", target: `stream ${id}`, detail: names.map(logged).join(", ") },
        now()
      )
    })
    out(`Stream ${id}: ${names.map(said).join(", ")}`)
    return 0
  }
}

import { audit } from "../audit/auditFeature.ts"
import { type Command, requireId, UsageError } from "../cli/command.ts"
import { mustHaveFound } from "./streamOptions.ts"
import { deleteStream, setStreamMaintenance } from "./streamsRepo.ts"

export const streamRemove: Command = {
  name: "stream:remove",
  usage: "--id N",
  summary: "Remove a stream",
  options: { id: { type: "string" } },
  async run(args, { db, out, now, operator }) {
    const id = requireId(args)
    await db.transaction().execute(async (trx) => {
      mustHaveFound(await deleteStream(trx, id), id)
      await audit.record(trx, audit.operator(operator), { action: "stream.remove", target: `stream ${id}` }, now())
    })
    out(`Removed stream ${id}`)
    return 0
  }
}

export const streamMaintenance: Command = {
  name: "stream:maintenance",
  usage: "--id N --on|--off",
  summary: "Mark a stream as under maintenance, or clear the mark",
  options: { id: { type: "string" }, on: { type: "boolean" }, off: { type: "boolean" } },
  async run(args, { db, out, now, operator }) {
    const id = requireId(args)
    if ((args.on === true) === (args.off === true)) throw new UsageError("give exactly one of --on or --off")
    const on = args.on === true
    await db.transaction().execute(async (trx) => {
      mustHaveFound(await setStreamMaintenance(trx, id, on), id)
      await audit.record(
        trx,
        audit.operator(operator),
        { action: "stream.maintenance", target: `stream ${id}`, detail: on ? "on" : "off" },
        now()
      )
    })
    out(`Stream ${id} maintenance is ${on ? "ON" : "OFF"}`)
    return 0
  }
}

import type { Kysely } from "kysely"
import type { Command } from "../cli/command.ts"
import { connections } from "../connections/connectionsFeature.ts"
import type { Tables } from "../db/schema.ts"
import type { FeatureDeps, ServerFeature } from "../http/serverFeature.ts"
import { streamAdd, streamImport, streamList, streamMaintenance, streamRemove, streamSet } from "./streamCommands.ts"
import { streamHandlers } from "./streamHandlers.ts"
import { countStreams, insertStream, listStreams, updateStream } from "./streamsRepo.ts"

/** The streams of the grid and both players. */
export function streamsFeature({ db, config, now }: FeatureDeps): ServerFeature {
  return { handlers: streamHandlers(db, connections.signer(db, config.publicUrl, now)) }
}

export const streamsCommands: ReadonlyArray<Command> = [streamAdd, streamSet, streamList, streamRemove, streamMaintenance, streamImport]

/** Every address a stream plays or shows from: the page may load media from these alone. */
async function mediaLocations(db: Kysely<Tables>): Promise<Array<string | null>> {
  return (await listStreams(db)).flatMap((stream) => [stream.src, stream.src_sldp, stream.image_location])
}

/**
 * What the rest of the server asks of the streams: the page's media origins, the first-start
 * channels and, for the guide, which stream plays which XMLTV channel.
 */
export const streams = { mediaLocations, count: countStreams, add: insertStream, list: listStreams, update: updateStream } as const

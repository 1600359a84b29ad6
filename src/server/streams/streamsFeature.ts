import type { Kysely } from "kysely"
import type { Command } from "../cli/command.ts"
import { connections } from "../connections/connectionsFeature.ts"
import type { Db } from "../db/database.ts"
import type { Tables } from "../db/schema.ts"
import type { FeatureDeps, ServerFeature } from "../http/serverFeature.ts"
import { streamKey, streamRelay } from "./relayCommands.ts"
import { streamAdd } from "./streamAdd.ts"
import { streamMaintenance, streamRemove } from "./streamCommands.ts"
import { streamHandlers } from "./streamHandlers.ts"
import { streamImport } from "./streamImport.ts"
import { streamList } from "./streamList.ts"
import { cachedStreamList } from "./streamListCache.ts"
import { streamSet } from "./streamSet.ts"
import { countStreams, insertStream, listStreams, updateStream } from "./streamsRepo.ts"

/** The streams of the grid and both players. */
export function streamsFeature({ db, tableVersion, config, now }: FeatureDeps): ServerFeature {
  return { handlers: streamHandlers(cachedStreamList(db, tableVersion), connections.signer(db, config.publicUrl, now)) }
}

export const streamsCommands: ReadonlyArray<Command> = [
  streamAdd,
  streamSet,
  streamRelay,
  streamKey,
  streamList,
  streamRemove,
  streamMaintenance,
  streamImport
]

/**
 * Every address a stream plays or shows from: the page may load media from these alone. Read
 * from the list the grid keeps, which `tableVersion` tells when to read again.
 */
async function mediaLocations(db: Kysely<Tables>, tableVersion: Db["tableVersion"]): Promise<Array<string | null>> {
  return (await cachedStreamList(db, tableVersion)()).flatMap((stream) => [stream.src, stream.src_sldp, stream.image_location])
}

/**
 * What the rest of the server asks of the streams: the page's media origins, the first-start
 * channels and, for the guide, which stream plays which XMLTV channel. `list` reads the table
 * every time: start-up and the CLI run it once, perhaps inside a transaction.
 */
export const streams = { mediaLocations, count: countStreams, add: insertStream, list: listStreams, update: updateStream } as const

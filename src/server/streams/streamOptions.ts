import { type Args, CommandFailure, optionalText, requireLocation } from "../cli/command.ts"

// What the stream commands share: the options a stream is made of, how they read, and the refusal
// of an id no stream has.

/** What a stream is made of, as stream:add takes it and stream:set changes it. */
export const STREAM_OPTIONS = {
  title: { type: "string" },
  src: { type: "string" },
  "src-sldp": { type: "string" },
  image: { type: "string" },
  tags: { type: "string" },
  "tags-sldp": { type: "string" },
  "epg-id": { type: "string" }
} as const

/** `--epg-id`: absent or "" is no guide channel. */
export function epgId(args: Args): string | null {
  const value = optionalText(args, "epg-id")?.trim()
  return value === undefined || value === "" ? null : value
}

/** A source given as "" clears it: the stream becomes subscribers-only for that player. */
export const optionalLocation = (args: Args, name: string): string | null => (args[name] === "" ? null : requireLocation(args, name))

/** A change to a stream that touched no row: there is no stream of that id. */
export const mustHaveFound = (found: boolean, id: number): void => {
  if (!found) throw new CommandFailure(`No stream with id ${id}`)
}

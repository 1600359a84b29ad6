import { execFileSync } from "node:child_process"

/**
 * The ffmpeg children this process runs to package channels (they write fragmented MP4 to their
 * standard output; a test's own encoders and sources are told apart by their arguments).
 */
export const packagingChildren = (): Array<number> => {
  try {
    return execFileSync("pgrep", ["-P", String(process.pid), "-f", "movflags"], { encoding: "utf8" })
      .split("\n")
      .filter(Boolean)
      .map(Number)
  } catch {
    return []
  }
}

#!/usr/bin/env node
// Writes a channel's segments.json from its MPEG-TS files, so the origin never probes media at
// runtime. Plain JavaScript without dependencies: it runs on any Node the machine has.
//
//   node manifest.mjs <channel dir> <label> <part seconds>
//
// Every video keyframe opens a low-latency part. A part's bytes start at the PAT/PMT that the
// muxer writes right before the keyframe's PES, so each part decodes on its own; everything
// between two such points (including interleaved audio) belongs to the earlier part.
import { readdirSync, readFileSync, writeFileSync } from "node:fs"
import path from "node:path"

const PACKET = 188
const CLOCK = 90_000
const PSI_PIDS = new Set([0x0000, 0x0011])

const fail = (message) => {
  console.error(`manifest.mjs: ${message}`)
  process.exit(1)
}

const readPts = (bytes, at) =>
  (bytes[at] & 0x0e) * 2 ** 29 + bytes[at + 1] * 2 ** 22 + (bytes[at + 2] & 0xfe) * 2 ** 14 +
  bytes[at + 3] * 2 ** 7 + (bytes[at + 4] >> 1)

/** Video PES starts of one TS file: byte offset, PTS and whether the packet marks random access. */
const scan = (file) => {
  const bytes = readFileSync(file)
  if (bytes.length % PACKET !== 0) fail(`${file}: size is not a multiple of ${PACKET}`)
  const pids = []
  const starts = []
  const frames = []
  let pmtPid
  let videoPid
  for (let at = 0; at < bytes.length; at += PACKET) {
    if (bytes[at] !== 0x47) fail(`${file}: lost TS sync at byte ${at}`)
    const pid = ((bytes[at + 1] & 0x1f) << 8) | bytes[at + 2]
    const start = (bytes[at + 1] & 0x40) !== 0
    const control = (bytes[at + 3] >> 4) & 0x3
    let payload = at + 4
    let randomAccess = false
    if (control & 0x2) {
      const length = bytes[payload]
      randomAccess = length > 0 && (bytes[payload + 1] & 0x40) !== 0
      payload += 1 + length
    }
    pids.push(pid)
    starts.push(start)
    if (!start || !(control & 0x1)) continue
    if (pid === 0 && pmtPid === undefined) {
      const section = payload + 1 + bytes[payload]
      pmtPid = ((bytes[section + 10] & 0x1f) << 8) | bytes[section + 11]
    } else if (pid === pmtPid && videoPid === undefined) {
      const section = payload + 1 + bytes[payload]
      const end = section + 3 + (((bytes[section + 1] & 0x0f) << 8) | bytes[section + 2]) - 4
      let entry = section + 12 + (((bytes[section + 10] & 0x0f) << 8) | bytes[section + 11])
      for (; entry < end; entry += 5 + (((bytes[entry + 3] & 0x0f) << 8) | bytes[entry + 4])) {
        if (bytes[entry] === 0x1b) videoPid = ((bytes[entry + 1] & 0x1f) << 8) | bytes[entry + 2]
      }
    } else if (pid === videoPid) {
      if ((bytes[payload + 7] & 0x80) === 0) fail(`${file}: video PES without PTS at byte ${at}`)
      frames.push({ at, pts: readPts(bytes, payload + 9), key: randomAccess })
    }
  }
  if (videoPid === undefined || frames.length < 2) fail(`${file}: no H.264 video found`)
  return { size: bytes.length, pids, starts, frames, psi: new Set([...PSI_PIDS, pmtPid]) }
}

const seconds = (ticks) => Math.round((ticks / CLOCK) * 1000) / 1000

const describe = (file, partSeconds) => {
  const { size, pids, starts, frames, psi } = scan(file)
  const frameTicks = Math.min(...frames.slice(1).map((frame, i) => frame.pts - frames[i].pts))
  const end = frames[frames.length - 1].pts + frameTicks
  const keys = frames.filter((frame) => frame.key)
  if (keys[0] !== frames[0]) fail(`${file}: does not open on a keyframe`)
  const parts = keys.map((key, i) => {
    let offset = key.at
    while (offset > 0 && psi.has(pids[offset / PACKET - 1])) offset -= PACKET
    if (!pids.slice(offset / PACKET, key.at / PACKET).includes(0)) {
      fail(`${file}: keyframe at byte ${key.at} is not preceded by a PAT`)
    }
    const next = keys[i + 1]
    return { offset, duration: seconds((next?.pts ?? end) - key.pts) }
  })
  if (parts[0].offset !== 0) fail(`${file}: leading bytes before the first part`)
  // A PES cut in two would leave the next part starting mid-frame on some stream.
  for (const part of parts.slice(1)) {
    const seen = new Set()
    for (let i = part.offset / PACKET; i < pids.length; i += 1) {
      if (psi.has(pids[i]) || seen.has(pids[i])) continue
      if (!starts[i]) fail(`${file}: a PES of PID ${pids[i]} runs across the part at byte ${part.offset}`)
      seen.add(pids[i])
    }
  }
  for (const [i, part] of parts.entries()) {
    if (Math.abs(part.duration - partSeconds) > 0.0005) {
      fail(`${file}: part ${i} lasts ${part.duration} s, not ${partSeconds} s (keyframe grid off?)`)
    }
  }
  return {
    file: path.basename(file),
    duration: seconds(end - frames[0].pts),
    parts: parts.map((part, i) => ({
      offset: part.offset,
      size: (parts[i + 1]?.offset ?? size) - part.offset,
      duration: part.duration
    }))
  }
}

const [dir, label, partArg] = process.argv.slice(2)
const partSeconds = Number(partArg)
if (!dir || !label || !(partSeconds > 0)) fail("usage: node manifest.mjs <channel dir> <label> <part seconds>")
const files = readdirSync(dir)
  .filter((name) => /^seg[0-9]+\.ts$/.test(name))
  .sort((a, b) => Number(a.slice(3, -3)) - Number(b.slice(3, -3)))
const segments = files.map((name) => describe(path.join(dir, name), partSeconds))

// Laid out by hand, one part per line, so diffs of regenerated media stay readable.
const fixed = (value) => value.toFixed(3)
const json = [
  "{",
  `  "label": ${JSON.stringify(label)},`,
  '  "segments": [',
  segments
    .map((segment) => {
      const parts = segment.parts
        .map((part) => `{ "offset": ${part.offset}, "size": ${part.size}, "duration": ${fixed(part.duration)} }`)
        .join(",\n        ")
      return `    { "file": "${segment.file}", "duration": ${fixed(segment.duration)},\n      "parts": [\n        ${parts}\n      ] }`
    })
    .join(",\n"),
  "  ]",
  "}",
  ""
].join("\n")
writeFileSync(path.join(dir, "segments.json"), json)

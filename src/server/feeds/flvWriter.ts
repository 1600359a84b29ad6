/**
 * What an RTMP publisher sends, as the FLV ffmpeg reads on its standard input: the header, the
 * stream's metadata and codec configurations first (so an ffmpeg started in the middle of a
 * publication still knows the codecs), then audio and video from the next keyframe on.
 */
import type { Writable } from "node:stream"

export const FLV_AUDIO = 8
export const FLV_VIDEO = 9
export const FLV_SCRIPT = 18

/** One FLV tag: its type, its time in milliseconds, its body. */
export function flvTag(type: number, timestamp: number, body: Buffer): Buffer {
  const tag = Buffer.alloc(11 + body.length + 4)
  tag[0] = type
  tag.writeUIntBE(body.length, 1, 3)
  tag.writeUIntBE(timestamp & 0xffffff, 4, 3)
  tag[7] = (timestamp >>> 24) & 0xff
  body.copy(tag, 11)
  tag.writeUInt32BE(11 + body.length, 11 + body.length)
  return tag
}

/** The file header, saying which tracks follow, and the first (empty) previous-tag size. */
export function flvHeader(tracks: { readonly audio: boolean; readonly video: boolean }): Buffer {
  const header = Buffer.from([0x46, 0x4c, 0x56, 0x01, 0, 0, 0, 0, 9, 0, 0, 0, 0])
  header[4] = (tracks.audio ? 4 : 0) | (tracks.video ? 1 : 0)
  return header
}

// AVC's decoder configuration: codec 7, packet type 0
const isVideoConfig = (body: Buffer): boolean => body.length >= 2 && ((body[0] ?? 0) & 0x0f) === 7 && body[1] === 0
// AAC's audio specific configuration: format 10, packet type 0
const isAudioConfig = (body: Buffer): boolean => body.length >= 2 && (body[0] ?? 0) >> 4 === 10 && body[1] === 0
const isKeyframe = (body: Buffer): boolean => body.length >= 1 && (body[0] ?? 0) >> 4 === 1

// what ffmpeg has not taken yet, past which its input is dropped rather than kept: ffmpeg is stuck,
// and the stall watch restarts it
const MAX_BACKLOG = 16 * 1024 * 1024
// audio tags wait for the next video tag (or for this many) and go to ffmpeg with it, in one write:
// each write wakes ffmpeg, and audio comes twice as often as video
const HELD_AUDIO = 4

/** A publication's FLV, written to whichever ffmpeg takes it now. */
export class FlvFeed {
  private metadata: Buffer | undefined
  private videoConfig: { readonly timestamp: number; readonly body: Buffer } | undefined
  private audioConfig: { readonly timestamp: number; readonly body: Buffer } | undefined
  private hasAudio = false
  private hasVideo = false
  private target: Writable | undefined
  /** whether the current target has had a keyframe yet (audio and video wait for it, when there is video) */
  private started = false
  /** whether the current target still waits for its header: until the publisher says which tracks it sends */
  private headerDue = false
  /** tags not written yet: audio waiting for the next video tag */
  private held: Array<Buffer> = []

  /** The publisher's `onMetaData`, which says which tracks it sends. */
  metadataOf(body: Buffer, tracks: { readonly audio: boolean; readonly video: boolean }): void {
    const first = this.metadata === undefined
    this.metadata = body
    this.hasAudio ||= tracks.audio
    this.hasVideo ||= tracks.video
    if (this.headerDue) this.writeHeader()
    else if (!first) this.write(FLV_SCRIPT, 0, body)
  }

  media(type: typeof FLV_AUDIO | typeof FLV_VIDEO, timestamp: number, body: Buffer): void {
    if (body.length === 0) return
    // no metadata came first: the header says both tracks, as the publisher did not say
    if (this.headerDue) this.writeHeader(true)
    if (type === FLV_VIDEO) {
      this.hasVideo = true
      if (isVideoConfig(body)) this.videoConfig = { timestamp, body }
      else if (!this.started && isKeyframe(body)) this.started = true
    } else {
      this.hasAudio = true
      if (isAudioConfig(body)) this.audioConfig = { timestamp, body }
    }
    const config = (type === FLV_VIDEO && isVideoConfig(body)) || (type === FLV_AUDIO && isAudioConfig(body))
    if (!config && !this.started && this.hasVideo) return
    if (!config && !this.started) this.started = true
    this.write(type, timestamp, body)
  }

  /** ffmpeg takes the publication from here on. */
  attach(target: Writable): void {
    this.target = target
    this.started = false
    this.headerDue = true
    this.held = []
    // ffmpeg waits for every track the header names: it is written once the tracks are known
    if (this.metadata !== undefined || this.hasAudio || this.hasVideo) this.writeHeader()
  }

  private writeHeader(guess = false): void {
    const target = this.target
    this.headerDue = false
    if (target === undefined) return
    target.write(
      flvHeader(guess && !this.hasAudio && !this.hasVideo ? { audio: true, video: true } : { audio: this.hasAudio, video: this.hasVideo })
    )
    if (this.metadata !== undefined) target.write(flvTag(FLV_SCRIPT, 0, this.metadata))
    if (this.videoConfig !== undefined) target.write(flvTag(FLV_VIDEO, this.videoConfig.timestamp, this.videoConfig.body))
    if (this.audioConfig !== undefined) target.write(flvTag(FLV_AUDIO, this.audioConfig.timestamp, this.audioConfig.body))
  }

  detach(): void {
    this.target = undefined
    this.headerDue = false
    this.held = []
  }

  /** The publication is over: ffmpeg reads to the end and finishes. */
  end(): void {
    this.flush()
    this.target?.end()
    this.target = undefined
  }

  private write(type: number, timestamp: number, body: Buffer): void {
    const target = this.target
    if (target === undefined || target.destroyed || target.writableLength > MAX_BACKLOG) return
    this.held.push(flvTag(type, timestamp, body))
    if (type !== FLV_AUDIO || !this.hasVideo || this.held.length >= HELD_AUDIO) this.flush()
  }

  private flush(): void {
    const target = this.target
    if (this.held.length === 0) return
    const tags = this.held.length === 1 ? (this.held[0] as Buffer) : Buffer.concat(this.held)
    this.held = []
    if (target !== undefined && !target.destroyed) target.write(tags)
  }
}

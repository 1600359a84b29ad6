// The part of m3u8-parser's output the relay reads (the package ships no types).
declare module "m3u8-parser" {
  export interface ParsedPart {
    readonly uri: string
    readonly duration: number
    readonly independent?: boolean
  }
  export interface ParsedSegment {
    readonly uri: string
    readonly duration: number
    readonly parts?: ReadonlyArray<ParsedPart>
  }
  export interface ParsedManifest {
    readonly playlists?: ReadonlyArray<{ readonly uri: string }>
    readonly segments: ReadonlyArray<ParsedSegment>
    readonly mediaSequence?: number
    readonly discontinuitySequence?: number
    readonly targetDuration?: number
    readonly partTargetDuration?: number
    readonly endList?: boolean
    readonly serverControl?: { readonly canBlockReload?: boolean }
    readonly preloadSegment?: { readonly parts?: ReadonlyArray<ParsedPart> }
  }
  export class Parser {
    push(text: string): void
    end(): void
    readonly manifest: ParsedManifest
  }
}

import type { SnapshotFrom } from "xstate"
import { type EpgEntry, isAiring, progressOf, type ScheduleItem, upcomingProgrammes } from "../../domain/Schedule.ts"
import { chooseStream, type PlayerChoice, type Stream } from "../../domain/Stream.ts"
import { canStartOver, startOverSearch } from "../../domain/Timeshift.ts"
import type { guideMachine } from "./guideMachine.ts"

export type GuideSnapshot = SnapshotFrom<typeof guideMachine>
export type GuideStatus = "loading" | "loaded" | "empty" | "failed"
export type SearchState = "idle" | "searching" | "complete" | "incomplete"

/** A search lists this many matches at most; a longer list only asks for a sharper query. */
export const SEARCH_RESULT_LIMIT = 50

export interface GuideProgramme {
  readonly key: string
  readonly start: string
  readonly end: string
  readonly title: string
  readonly subtitle: string
  readonly live: boolean
  /** How far a LIVE programme has run, 0 to 1. */
  readonly progress: number
  /** The player page that plays it now; null unless it is LIVE on one of our playable streams. */
  readonly watch: string | null
  /** The stream its channel plays on, when it is one of ours: what a reminder names. */
  readonly streamId: number | null
  /** The TV player from the programme's start, on a playable stream whose time-shift window still holds it; null otherwise. */
  readonly startOver: string | null
  /** Not started yet, on one of our streams: "Remind me" is offered. */
  readonly remindable: boolean
}

export interface GuideChannel {
  readonly key: string
  readonly name: string
  readonly programmes: ReadonlyArray<GuideProgramme>
  /** Programmes over already whose start the channel's time-shift window still holds: "Watch from the start" on them, earliest first. */
  readonly catchUp: ReadonlyArray<GuideProgramme>
}

export interface SearchResult extends GuideProgramme {
  readonly day: string
  readonly channel: string
}

export interface GuideSearch {
  readonly state: SearchState
  readonly searchedDays: number
  readonly totalDays: number
  /** Every match; only the first SEARCH_RESULT_LIMIT are in `results`. */
  readonly matches: number
  readonly results: ReadonlyArray<SearchResult>
}

/** Answers the last result while its arguments are the same objects, so views re-render only on change. */
const memoize = <A extends ReadonlyArray<unknown>, R>(compute: (...args: A) => R): ((...args: A) => R) => {
  let last: { readonly args: A; readonly result: R } | undefined
  return (...args) => {
    if (last !== undefined && args.every((arg, index) => Object.is(arg, last?.args[index]))) return last.result
    const result = compute(...args)
    last = { args, result }
    return result
  }
}

/** Where Watch leads: the viewer's chosen player on that stream, when it plays there (SPEC §4). */
export const watchTarget = (channel: ScheduleItem["Channel"], streams: ReadonlyArray<Stream>, player: PlayerChoice): string | null => {
  const index = channel.StreamId === undefined ? -1 : streams.findIndex((stream) => stream.id === channel.StreamId)
  const stream = streams[index]
  if (stream === undefined) return null
  const choice = chooseStream(stream, index, player)
  return choice.kind === "play" ? choice.path : null
}

/** Where a programme's stream is, and how far back its channel reaches, for its start-over and reminder actions. */
interface ProgrammeReach {
  readonly watch: string | null
  readonly streamId: number | null
  readonly timeshiftHours: number
}

const reachOf = (
  channel: ScheduleItem["Channel"],
  streams: ReadonlyArray<Stream>,
  player: PlayerChoice,
  timeshiftHours: number
): ProgrammeReach => ({
  watch: watchTarget(channel, streams, player),
  streamId: channel.StreamId ?? null,
  timeshiftHours
})

const programmeOf = (entry: EpgEntry, now: number, { watch, streamId, timeshiftHours }: ProgrammeReach): GuideProgramme => {
  const live = isAiring(entry, now)
  return {
    key: `${entry.StartTime}|${entry.Title}`,
    start: entry.StartTime,
    end: entry.EndTime,
    title: entry.Title,
    subtitle: entry.Subtitle,
    live,
    progress: live ? progressOf(entry, now) : 0,
    watch: live ? watch : null,
    streamId,
    // only where Watch would play: not on a stream under maintenance or one the viewer cannot open
    startOver:
      watch !== null && streamId !== null && canStartOver(entry, now, timeshiftHours)
        ? `/player${startOverSearch(streamId, entry.StartTime)}`
        : null,
    remindable: streamId !== null && Date.parse(entry.StartTime) > now
  }
}

const programmesOf = (item: ScheduleItem, now: number, reach: ProgrammeReach): ReadonlyArray<GuideProgramme> =>
  upcomingProgrammes(item.EpgList, now).map((entry) => programmeOf(entry, now, reach))

const channelsOf = memoize(
  (
    items: ReadonlyArray<ScheduleItem> | undefined,
    now: number,
    streams: ReadonlyArray<Stream>,
    player: PlayerChoice,
    timeshiftHours: number
  ): ReadonlyArray<GuideChannel> =>
    (items ?? []).flatMap((item, index) => {
      const reach = reachOf(item.Channel, streams, player, timeshiftHours)
      const programmes = programmesOf(item, now, reach)
      const catchUp = item.EpgList.filter((entry) => Date.parse(entry.EndTime) <= now)
        .map((entry) => programmeOf(entry, now, reach))
        .filter((programme) => programme.startOver !== null)
      return programmes.length === 0 ? [] : [{ key: `${index}|${item.Channel.Name}`, name: item.Channel.Name, programmes, catchUp }]
    })
)

const normalise = (text: string): string => text.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase()
// entries keep their identity while their day stays loaded, so each is normalised once
const searchable = new WeakMap<EpgEntry, string>()
const searchTextOf = (entry: EpgEntry): string => {
  let text = searchable.get(entry)
  if (text === undefined) {
    text = normalise(`${entry.Title}\n${entry.Subtitle}`)
    searchable.set(entry, text)
  }
  return text
}

const searchOf = memoize(
  (
    state: SearchState,
    query: string,
    days: ReadonlyArray<string>,
    schedules: Readonly<Record<string, ReadonlyArray<ScheduleItem>>>,
    now: number,
    streams: ReadonlyArray<Stream>,
    player: PlayerChoice,
    timeshiftHours: number
  ): GuideSearch => {
    const terms = normalise(query)
      .split(/\s+/)
      .filter((term) => term !== "")
    const searched = days.filter((day) => day in schedules)
    const seen = new Set<string>()
    const matches: Array<SearchResult> = []
    for (const day of terms.length === 0 ? [] : searched) {
      for (const item of schedules[day] ?? []) {
        const reach = reachOf(item.Channel, streams, player, timeshiftHours)
        for (const entry of item.EpgList) {
          if (Date.parse(entry.EndTime) <= now || !terms.every((term) => searchTextOf(entry).includes(term))) continue
          const programme = programmeOf(entry, now, reach)
          // a programme that runs past midnight is in both days' answers; it belongs to the day it starts
          const key = `${item.Channel.Name}|${programme.key}`
          if (seen.has(key)) continue
          seen.add(key)
          matches.push({ ...programme, key, day, channel: item.Channel.Name })
        }
      }
    }
    matches.sort((a, b) => Date.parse(a.start) - Date.parse(b.start))
    return {
      state,
      searchedDays: searched.length,
      totalDays: days.length,
      matches: matches.length,
      results: matches.slice(0, SEARCH_RESULT_LIMIT)
    }
  }
)

export const selectStatus = (snapshot: GuideSnapshot): GuideStatus =>
  snapshot.hasTag("failed")
    ? "failed"
    : snapshot.matches({ open: { day: "loaded" } })
      ? "loaded"
      : snapshot.matches({ open: { day: "empty" } })
        ? "empty"
        : "loading"
export const selectError = (snapshot: GuideSnapshot): string | null => (snapshot.hasTag("failed") ? snapshot.context.error : null)
/** Nothing to choose or search until the viewer's zone, and so the seven days, are known. */
export const selectIsReady = (snapshot: GuideSnapshot): boolean => snapshot.matches("open")
/** The guide shows, but the streams its Watch links lead to could not be loaded. */
export const selectStreamsUnavailable = (snapshot: GuideSnapshot): boolean => snapshot.hasTag("streamsUnavailable")
export const selectDays = (snapshot: GuideSnapshot): ReadonlyArray<string> => snapshot.context.days
export const selectDay = (snapshot: GuideSnapshot): string => snapshot.context.day
export const selectTimeZone = (snapshot: GuideSnapshot): string => snapshot.context.timeZone
export const selectQuery = (snapshot: GuideSnapshot): string => snapshot.context.query

/** The chosen day's channels that have programmes left, each with those programmes, LIVE first. */
export const selectChannels = (snapshot: GuideSnapshot): ReadonlyArray<GuideChannel> => {
  const { schedules, day, now, streams, player, timeshiftHours } = snapshot.context
  return channelsOf(schedules[day], now, streams, player, timeshiftHours)
}

const searchStateOf = (snapshot: GuideSnapshot): SearchState =>
  snapshot.matches({ open: { search: "idle" } }) || !snapshot.matches("open")
    ? "idle"
    : snapshot.matches({ open: { search: "complete" } })
      ? "complete"
      : snapshot.matches({ open: { search: "incomplete" } })
        ? "incomplete"
        : "searching"

/** Programmes not yet ended whose title or subtitle holds every word of the query, over the days loaded so far. */
export const selectSearch = (snapshot: GuideSnapshot): GuideSearch => {
  const { query, days, schedules, now, streams, player, timeshiftHours } = snapshot.context
  return searchOf(searchStateOf(snapshot), query, days, schedules, now, streams, player, timeshiftHours)
}

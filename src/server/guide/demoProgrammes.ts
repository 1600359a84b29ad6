/** Picks from a list with the programme's own random numbers, so a slot always gets the same programme. */
export type Pick = <T>(items: ReadonlyArray<T>) => T

export interface DemoFormat {
  /** Lengths this kind of programme comes in. */
  readonly minutes: ReadonlyArray<number>
  readonly title: (pick: Pick) => string
  readonly subtitle: (pick: Pick) => string
}

const TEAMS = [
  "Harbour City",
  "Northfield",
  "Riverside Athletic",
  "Eastbrook",
  "Kingsmoor",
  "Westhaven United",
  "Ashby Rovers",
  "Millbrook",
  "Fjordvik",
  "Southport Wanderers",
  "Lakeside",
  "Stonebridge"
]
const PLAYERS = ["A. Berg", "M. Okafor", "L. Moreau", "S. Lindqvist", "J. Alvarez", "K. Tanaka", "E. Novak", "R. Haddad"]
const PLACES = ["Bergen", "Voss", "Geiranger", "Lillehammer", "Tromsø", "Ålesund", "Trondheim", "Stavanger"]
const ROUNDS = ["Round of 16", "Quarter-final", "Semi-final", "Final"]

const two = (pick: Pick, items: ReadonlyArray<string>): [string, string] => {
  const first = pick(items)
  const rest = items.filter((item) => item !== first)
  return [first, pick(rest)]
}
const number = (pick: Pick, from: number, to: number): number => pick(Array.from({ length: to - from + 1 }, (_, i) => from + i))

// Sports first and most often, because the demo channels stand in for sports channels.
export const DEMO_FORMATS: ReadonlyArray<DemoFormat> = [
  {
    minutes: [120],
    title: (pick) => `Football: ${two(pick, TEAMS).join(" v ")}`,
    subtitle: (pick) => `Premier Division, matchday ${number(pick, 1, 34)}. Live`
  },
  {
    minutes: [120, 105],
    title: (pick) => `Cup Football: ${two(pick, TEAMS).join(" v ")}`,
    subtitle: (pick) => `National Cup, ${pick(ROUNDS)}`
  },
  {
    minutes: [90, 120],
    title: () => "Tennis: Harbour Open",
    subtitle: (pick) => `${pick(ROUNDS)}: ${two(pick, PLAYERS).join(" v ")}`
  },
  {
    minutes: [60, 90],
    title: () => "Cycling: Tour of the Fjords",
    subtitle: (pick) => {
      const [from, to] = two(pick, PLACES)
      return `Stage ${number(pick, 1, 21)}: ${from} to ${to}, ${number(pick, 120, 220)} km`
    }
  },
  {
    minutes: [90],
    title: () => "Motor Racing: Lakeside Grand Prix",
    subtitle: (pick) => pick(["Practice", "Qualifying", "Sprint race", "The race, live"])
  },
  {
    minutes: [30, 45],
    title: () => "Sports Tonight",
    subtitle: (pick) => pick(["Results, highlights and interviews", "The weekend's goals", "Transfer news and the table"])
  },
  {
    minutes: [60],
    title: () => "Matchday Classics",
    subtitle: (pick) => `${two(pick, TEAMS).join(" v ")}, ${number(pick, 1985, 2020)}`
  },
  {
    minutes: [30],
    title: () => "News and Weather",
    subtitle: () => "Headlines from home and abroad"
  },
  {
    minutes: [60],
    title: () => "Wild Coasts",
    subtitle: (pick) =>
      `Episode ${number(pick, 1, 8)}: ${pick(["The northern cliffs", "Islands of the storm", "Life in the shallows", "Winter tides"])}`
  },
  {
    minutes: [45, 60],
    title: () => "Kitchen Table",
    subtitle: (pick) =>
      `Series ${number(pick, 1, 4)}, episode ${number(pick, 1, 10)}: ${pick(["Autumn soups", "Fish suppers", "Baking day", "A taste of the mountains"])}`
  }
]

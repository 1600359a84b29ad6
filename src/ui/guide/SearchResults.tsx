import type { GuideSearch } from "../../machines/guide/guideSelectors.ts"
import type { ReminderControls } from "../reminders/ProgrammeReminder.tsx"
import { RetryNotice } from "../shared/RetryNotice.tsx"
import * as surfaces from "../shared/surfaces.css.ts"
import * as styles from "./GuideView.css.ts"
import { dayShort } from "./guideFormat.ts"
import { ProgrammeItem } from "./ProgrammeItem.tsx"

interface SearchResultsProps {
  readonly search: GuideSearch
  readonly query: string
  readonly days: ReadonlyArray<string>
  readonly timeZone: string
  readonly onRetry: () => void
  readonly reminders: ReminderControls
}

const summary = ({ state, searchedDays, totalDays, matches, results }: GuideSearch, query: string): string => {
  const found =
    matches === 0 ? `No programmes match “${query.trim()}”` : matches === 1 ? "1 programme found" : `${matches} programmes found`
  const shown = matches > results.length ? `, showing the first ${results.length}: add a word to narrow it down` : ""
  const progress = state === "searching" ? ` so far, searching ${searchedDays} of ${totalDays} days…` : ""
  return `${found}${shown}${progress}`
}

/** Matches across the seven days, with the day and channel each airs on. */
export const SearchResults = ({ search, query, days, timeZone, onRetry, reminders }: SearchResultsProps) => (
  <section className={styles.results} aria-labelledby="search-results-title" aria-busy={search.state === "searching" || undefined}>
    <h2 id="search-results-title" className={surfaces.panelTitle}>
      Search results
    </h2>
    <p className={surfaces.muted} role="status">
      {summary(search, query)}
    </p>
    {search.state === "incomplete" ? (
      <RetryNotice message="Some days could not be searched." onRetry={onRetry} retryLabel="Search them again" partial />
    ) : null}
    {search.results.length === 0 ? null : (
      <ul className={styles.resultList} aria-label="Matching programmes">
        {search.results.map((result) => (
          <ProgrammeItem
            key={`${result.day}|${result.key}`}
            programme={result}
            channel={result.channel}
            timeZone={timeZone}
            found={{ day: dayShort(result.day, days) }}
            reminders={reminders}
          />
        ))}
      </ul>
    )}
  </section>
)

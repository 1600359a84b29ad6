/** The value below which `fraction` of the samples lie (nearest rank). */
export const percentile = (samples: ReadonlyArray<number>, fraction: number): number => {
  const sorted = [...samples].sort((a, b) => a - b)
  if (sorted.length === 0) return Number.NaN
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(fraction * sorted.length) - 1))
  return sorted[rank] ?? Number.NaN
}

export const median = (samples: ReadonlyArray<number>): number => {
  const sorted = [...samples].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  if (sorted.length === 0) return Number.NaN
  return sorted.length % 2 === 1 ? (sorted[middle] ?? Number.NaN) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2
}

export const row = (label: string, values: ReadonlyArray<string | number>): string =>
  [label.padEnd(34), ...values.map((value) => String(value).padStart(10))].join("")

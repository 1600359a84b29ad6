// Kept apart from the schemas: the player page's first script reads it before the app loads.

/** The grant in a playlist address, or null when it has none. */
export const grantOf = (src: string): string | null => {
  const query = src.split("#", 1)[0]?.split("?", 2)[1]
  return query === undefined ? null : new URLSearchParams(query).get("grant")
}

/** The largest id a table holds: ids are 32-bit integers (PostgreSQL refuses a larger one outright). */
export const MAX_STORED_ID = 2 ** 31 - 1

/** Whether a number a client sent could name a stored row; when not, there is no such row. */
export const isStoredId = (id: number): boolean => Number.isInteger(id) && id > 0 && id <= MAX_STORED_ID

// What the browser keeps between visits (SPEC §4, §9), and the header the session travels in.
// Kept free of the schema library: a player page reads them before that library loads.

/** The session token's key in local storage, and the request header that carries it. */
export const TOKEN_STORAGE_KEY = "Token"
/** The last announcement the browser has shown, so each is shown once. */
export const ANNOUNCEMENT_STORAGE_KEY = "announcementToken"
export const PLAYER_CHOICE_STORAGE_KEY = "streamPlayer"
/** The answers to "start from the beginning or watch live?", by stream and programme (domain/StartOver.ts). */
export const START_OVER_STORAGE_KEY = "startOver"

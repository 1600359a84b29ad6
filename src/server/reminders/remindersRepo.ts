import type { Kysely } from "kysely"
import type { ReminderState, Tables, Timestamp } from "../db/schema.ts"

/** A guide programme on a stream, as a reminder is made from it. */
export interface ProgrammeOnStream {
  readonly channel_id: string
  readonly start_at: Timestamp
  readonly stop_at: Timestamp
  readonly title: string
}

export interface ReminderRow {
  readonly id: number
  readonly user_id: number
  readonly stream_id: number
  readonly channel: string
  readonly channel_id: string
  readonly start_at: Timestamp
  readonly stop_at: Timestamp
  readonly title: string
  readonly lead_minutes: number
  readonly remind_at: Timestamp
  readonly time_zone: string
  readonly state: ReminderState
}

/** A reminder with whom to mail: its viewer's address. */
export interface MailableReminder extends ReminderRow {
  readonly email: string
}

/** The programme of the guide the stream plays that starts at `startAt`; undefined when there is none. */
export async function findProgrammeOnStream(
  db: Kysely<Tables>,
  streamId: number,
  startAt: Timestamp
): Promise<ProgrammeOnStream | undefined> {
  return db
    .selectFrom("streams as s")
    .innerJoin("guide_programmes as p", "p.channel_id", "s.epg_channel_id")
    .select(["p.channel_id", "p.start_at", "p.stop_at", "p.title"])
    .where("s.id", "=", streamId)
    .where("p.start_at", "=", startAt)
    .executeTakeFirst()
}

const reminderColumns = [
  "r.id",
  "r.user_id",
  "r.stream_id",
  "s.title as channel",
  "r.channel_id",
  "r.start_at",
  "r.stop_at",
  "r.title",
  "r.lead_minutes",
  "r.remind_at",
  "r.time_zone",
  "r.state"
] as const

/** A viewer's reminders of programmes not ended by `now`, by start. */
export async function listReminders(db: Kysely<Tables>, userId: number, now: Timestamp): Promise<ReadonlyArray<ReminderRow>> {
  return db
    .selectFrom("reminders as r")
    .innerJoin("streams as s", "s.id", "r.stream_id")
    .select(reminderColumns)
    .where("r.user_id", "=", userId)
    .where("r.stop_at", ">", now)
    .orderBy("r.start_at")
    .orderBy("r.id")
    .execute()
}

export async function findReminder(db: Kysely<Tables>, userId: number, id: number): Promise<ReminderRow | undefined> {
  return db
    .selectFrom("reminders as r")
    .innerJoin("streams as s", "s.id", "r.stream_id")
    .select(reminderColumns)
    .where("r.user_id", "=", userId)
    .where("r.id", "=", id)
    .executeTakeFirst()
}

/** How many reminders a viewer has of programmes not ended by `now`: what the per-account bound counts. */
export async function countUpcoming(db: Kysely<Tables>, userId: number, now: Timestamp): Promise<number> {
  const row = await db
    .selectFrom("reminders")
    .select((eb) => eb.fn.countAll<number | string>().as("n"))
    .where("user_id", "=", userId)
    .where("stop_at", ">", now)
    .executeTakeFirstOrThrow()
  return Number(row.n)
}

export interface NewReminderRow {
  readonly user_id: number
  readonly stream_id: number
  readonly channel_id: string
  readonly start_at: Timestamp
  readonly stop_at: Timestamp
  readonly title: string
  readonly lead_minutes: number
  readonly remind_at: Timestamp
  readonly time_zone: string
  readonly created_at: Timestamp
}

/**
 * Sets the viewer's reminder of that programme, or sets it again (a new lead, another stream of
 * the same channel): one statement, so two clicks at once leave one reminder. Setting it again
 * makes it pending, to be mailed at the new time. Answers its id.
 */
export async function upsertReminder(db: Kysely<Tables>, row: NewReminderRow): Promise<number> {
  const saved = await db
    .insertInto("reminders")
    .values({ ...row, state: "pending" })
    .onConflict((oc) =>
      oc.columns(["user_id", "channel_id", "start_at"]).doUpdateSet({
        stream_id: row.stream_id,
        stop_at: row.stop_at,
        title: row.title,
        lead_minutes: row.lead_minutes,
        remind_at: row.remind_at,
        time_zone: row.time_zone,
        state: "pending",
        notified_at: null
      })
    )
    .returning("id")
    .executeTakeFirstOrThrow()
  return saved.id
}

export async function deleteReminder(db: Kysely<Tables>, userId: number, id: number): Promise<boolean> {
  const result = await db.deleteFrom("reminders").where("user_id", "=", userId).where("id", "=", id).executeTakeFirst()
  return result.numDeletedRows > 0n
}

/** Reminders of programmes over by `now`: nothing is left to remind of, or to list. */
export async function deleteEnded(db: Kysely<Tables>, now: Timestamp): Promise<number> {
  const result = await db.deleteFrom("reminders").where("stop_at", "<=", now).executeTakeFirst()
  return Number(result.numDeletedRows)
}

/**
 * Pending reminders of programmes not over by `now` whose programme the guide no longer has as it
 * was: nothing starts at their start on their channel any more, or something else does, or it
 * ends at another time.
 */
export async function pendingAstray(
  db: Kysely<Tables>,
  now: Timestamp,
  page: { readonly afterId: number; readonly limit: number }
): Promise<ReadonlyArray<MailableReminder>> {
  return db
    .selectFrom("reminders as r")
    .innerJoin("streams as s", "s.id", "r.stream_id")
    .innerJoin("users as u", "u.id", "r.user_id")
    .leftJoin("guide_programmes as p", (join) => join.onRef("p.channel_id", "=", "r.channel_id").onRef("p.start_at", "=", "r.start_at"))
    .select([...reminderColumns, "u.email"])
    .where("r.state", "=", "pending")
    .where("r.stop_at", ">", now)
    .where("r.id", ">", page.afterId)
    .where((eb) =>
      eb.or([eb("p.channel_id", "is", null), eb("p.title", "<>", eb.ref("r.title")), eb("p.stop_at", "<>", eb.ref("r.stop_at"))])
    )
    .orderBy("r.id")
    .limit(page.limit)
    .execute()
}

/** A channel's programmes titled `title` that start between `from` and `to`: where a moved programme may be now. */
export async function programmesTitled(
  db: Kysely<Tables>,
  channelId: string,
  title: string,
  range: { readonly from: Timestamp; readonly to: Timestamp }
): Promise<ReadonlyArray<ProgrammeOnStream>> {
  return db
    .selectFrom("guide_programmes")
    .select(["channel_id", "start_at", "stop_at", "title"])
    .where("channel_id", "=", channelId)
    .where("title", "=", title)
    .where("start_at", ">=", range.from)
    .where("start_at", "<=", range.to)
    .orderBy("start_at")
    .execute()
}

/** Whether the viewer already has a reminder of the programme at `startAt` on `channelId`. */
export async function hasReminderAt(db: Kysely<Tables>, userId: number, channelId: string, startAt: Timestamp): Promise<boolean> {
  const row = await db
    .selectFrom("reminders")
    .select("id")
    .where("user_id", "=", userId)
    .where("channel_id", "=", channelId)
    .where("start_at", "=", startAt)
    .executeTakeFirst()
  return row !== undefined
}

/** Follows a pending reminder's programme to its new times (only while it is still pending). */
export async function moveReminder(
  db: Kysely<Tables>,
  id: number,
  to: { readonly start_at: Timestamp; readonly stop_at: Timestamp; readonly remind_at: Timestamp }
): Promise<boolean> {
  const result = await db.updateTable("reminders").set(to).where("id", "=", id).where("state", "=", "pending").executeTakeFirst()
  return result.numUpdatedRows > 0n
}

/**
 * Marks a pending reminder `state` (sent, or dropped) as of `at`. Only one caller ever gets true
 * for a reminder, whatever the number of instances: the mail that goes with it is queued once.
 */
export async function settleReminder(db: Kysely<Tables>, id: number, state: "sent" | "dropped", at: Timestamp): Promise<boolean> {
  const result = await db
    .updateTable("reminders")
    .set({ state, notified_at: at })
    .where("id", "=", id)
    .where("state", "=", "pending")
    .executeTakeFirst()
  return result.numUpdatedRows > 0n
}

export async function deleteReminderById(db: Kysely<Tables>, id: number): Promise<void> {
  await db.deleteFrom("reminders").where("id", "=", id).execute()
}

/** Pending reminders due by `now` of programmes not over yet, earliest first. */
export async function dueReminders(db: Kysely<Tables>, now: Timestamp, limit: number): Promise<ReadonlyArray<MailableReminder>> {
  return db
    .selectFrom("reminders as r")
    .innerJoin("streams as s", "s.id", "r.stream_id")
    .innerJoin("users as u", "u.id", "r.user_id")
    .select([...reminderColumns, "u.email"])
    .where("r.state", "=", "pending")
    .where("r.remind_at", "<=", now)
    .where("r.stop_at", ">", now)
    .orderBy("r.remind_at")
    .orderBy("r.id")
    .limit(limit)
    .execute()
}

/** The reminders a calendar feed lists: the viewer's pending and sent ones of programmes not ended by `now`. */
export async function calendarReminders(db: Kysely<Tables>, userId: number, now: Timestamp): Promise<ReadonlyArray<ReminderRow>> {
  return db
    .selectFrom("reminders as r")
    .innerJoin("streams as s", "s.id", "r.stream_id")
    .select(reminderColumns)
    .where("r.user_id", "=", userId)
    .where("r.state", "in", ["pending", "sent"])
    .where("r.stop_at", ">", now)
    .orderBy("r.start_at")
    .execute()
}

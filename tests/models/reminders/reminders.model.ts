import { createMachine } from "xstate"
import { createTestModel } from "xstate/graph"

/**
 * What a person sees setting reminders, as a test model (no invoke, no delay): "Remind me" on a
 * programme of the Stream Schedule, the dialog choosing how long before, the tile that says it is
 * set, the Reminders page that lists it, and the calendar feed made and turned off there.
 */
export const remindersModel = createMachine({
  id: "remindersModel",
  initial: "closed",
  states: {
    closed: {
      description: "nothing opened yet",
      on: {
        "guide.open": { target: "guide", description: "open the Stream Schedule, signed in" },
        "reminders.openEmpty": { target: "empty", description: "open the Reminders page with no reminders" }
      }
    },
    guide: {
      description: "the programme to come offers Remind me",
      on: { "reminder.ask": { target: "dialog", description: "press Remind me on the programme" } }
    },
    dialog: {
      description: "the Remind me dialog naming the programme, 10 minutes before chosen",
      on: {
        "reminder.cancel": { target: "guide", description: "press Cancel" },
        "reminder.set": { target: "guideSet", description: "choose 30 minutes before and press Set reminder" }
      }
    },
    guideSet: {
      description: "'Reminder set' with the time of the mail on the programme, and Remove",
      on: {
        "reminder.removeOnGuide": { target: "guide", description: "press Remove on the programme" },
        "reminders.open": { target: "listed", description: "follow the guide's link to your reminders" }
      }
    },
    listed: {
      description: "the Reminders page listing the programme with when the mail goes",
      on: {
        "reminder.remove": { target: "empty", description: "press Remove on it" },
        "feed.make": { target: "feedShown", description: "press Make a calendar feed" }
      }
    },
    feedShown: {
      description: "the calendar feed's address, shown once, with Copy, Make a new address and Turn the feed off",
      on: { "feed.revoke": { target: "feedOff", description: "press Turn the feed off" } }
    },
    feedOff: { description: "no calendar feed: Make a calendar feed is offered again" },
    empty: { description: "'No reminders yet' and a calendar feed to make" }
  }
})

/** Every path the tests walk: each simple path from the closed app. */
export const remindersPaths = () => createTestModel(remindersModel).getSimplePaths()

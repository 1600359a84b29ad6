import { type SnapshotFrom, setup } from "xstate"

/** Menus and the burger panel: open or closed, nothing more. */
export type DisclosureEvent = { readonly type: "menu.toggle" } | { readonly type: "menu.open" } | { readonly type: "menu.close" }

export const disclosureMachine = setup({
  types: { events: {} as DisclosureEvent }
}).createMachine({
  id: "disclosure",
  initial: "closed",
  states: {
    closed: {
      on: { "menu.toggle": { target: "open" }, "menu.open": { target: "open" } }
    },
    open: {
      on: { "menu.toggle": { target: "closed" }, "menu.close": { target: "closed" } }
    }
  }
})

export const selectIsOpen = (snapshot: SnapshotFrom<typeof disclosureMachine>): boolean => snapshot.matches("open")

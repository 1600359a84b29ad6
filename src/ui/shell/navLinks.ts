/** The header's destinations, shared by the desktop bar and the burger panel. */
export interface NavLinkItem {
  readonly to: string
  readonly label: string
}

export const mainLinks: ReadonlyArray<NavLinkItem> = [
  { to: "/", label: "Home" },
  { to: "/stream-schedule", label: "Stream Schedule" },
  { to: "/invites", label: "Invites" }
]

export const supportLinks: ReadonlyArray<NavLinkItem> = [
  { to: "/support", label: "FAQ" },
  { to: "/contactus", label: "Contact Us" }
]

export const accountLinks: ReadonlyArray<NavLinkItem> = [
  { to: "/profile", label: "Account settings" },
  { to: "/reminders", label: "Reminders" }
]

export const staffLinks: ReadonlyArray<NavLinkItem> = [
  { to: "/adminreports", label: "Admin Reports" },
  { to: "/adminsupport", label: "Support Tickets" },
  { to: "/adminaudit", label: "Audit Log" }
]

import type { ComponentType } from "react"
import type { LoaderFunction, RouteObject } from "react-router-dom"
import { LOW_LATENCY_PLAYER, TV_PLAYER } from "../../domain/playerChoice.ts"
import { LoginView } from "../account/LoginView.tsx"
import { LoadingView } from "../shared/LoadingView.tsx"
import type { FeatureName } from "../shared/ServicesContext.tsx"
import { LogoutView } from "./LogoutView.tsx"
import { NOT_FOUND_TITLE, NotFoundView } from "./NotFoundView.tsx"
import { PublicLayout } from "./PublicLayout.tsx"
import { RedirectIfAuthenticated } from "./RedirectIfAuthenticated.tsx"
import { RequireSession } from "./RequireSession.tsx"
import { RequireStaff } from "./RequireStaff.tsx"
import { RouteErrorView } from "./RouteErrorView.tsx"
import { type RouteHandle, RouteTitle } from "./RouteTitle.tsx"

const titled = (title: string): RouteHandle => ({ title })

/** The route holding the pages anyone may open (login, register, the links mailed out). */
export const PUBLIC_ROUTES_ID = "public"

/** What happens on navigation, supplied by src/app where the machines meet the adapters. */
export interface RouteLoaders {
  /** Opening /logout ends the session; the view only shows how that is going. */
  readonly logout: LoaderFunction
  /** Loads a feature's page machines into the services, once; a failed load is tried again next time. */
  readonly feature: (name: FeatureName) => Promise<void>
}

/**
 * Every page but sign-in is its own chunk, loaded when first opened together with its feature's
 * machines: no page carries another page's code. Sign-in stays in the app's chunk, being the page
 * most visits start from; the signed-in frame loads alongside the first signed-in page; the player and hls.js, the staff pages' picker and charts, load only
 * when opened.
 */
export const createAppRoutes = (loaders: RouteLoaders): Array<RouteObject> => {
  const page =
    <M,>(feature: FeatureName | ReadonlyArray<FeatureName> | undefined, load: () => Promise<M>, pick: (module: M) => ComponentType) =>
    async () => {
      const features: ReadonlyArray<FeatureName> = feature === undefined ? [] : typeof feature === "string" ? [feature] : feature
      const [module] = await Promise.all([load(), ...features.map((name) => loaders.feature(name))])
      return { Component: pick(module) }
    }
  const lazyPlayer = (player: typeof TV_PLAYER | typeof LOW_LATENCY_PLAYER) => async () => {
    const [{ PlayerView }] = await Promise.all([import("../player/PlayerView.tsx"), loaders.feature("player")])
    return { element: <PlayerView player={player} /> }
  }
  const lazyLayout = async () => ({ Component: (await import("./Layout.tsx")).Layout })
  const lazyHome = page(
    "streams",
    () => import("../streams/HomeView.tsx"),
    (m) => m.HomeView
  )
  const lazyRegister = page(
    "account",
    () => import("../account/RegisterView.tsx"),
    (m) => m.RegisterView
  )
  const lazyVerifyEmail = page(
    "account",
    () => import("../account/VerifyEmailView.tsx"),
    (m) => m.VerifyEmailView
  )
  const lazySignInLink = page(
    "account",
    () => import("../account/SignInLinkView.tsx"),
    (m) => m.SignInLinkView
  )
  const lazyForgotPassword = page(
    "account",
    () => import("../account/ForgotPasswordView.tsx"),
    (m) => m.ForgotPasswordView
  )
  const lazyPasswordReset = page(
    "account",
    () => import("../account/PasswordResetView.tsx"),
    (m) => m.PasswordResetView
  )
  const lazyConfirmEmailChange = page(
    "account",
    () => import("../account/ConfirmEmailChangeView.tsx"),
    (m) => m.ConfirmEmailChangeView
  )
  const lazyProfile = page(
    "account",
    () => import("../account/ProfileView.tsx"),
    (m) => m.ProfileView
  )
  // the guide's programmes offer "Remind me", so it loads the viewer's reminders too
  const lazyGuide = page(
    ["guide", "reminders"],
    () => import("../guide/GuideView.tsx"),
    (m) => m.GuideView
  )
  const lazyReminders = page(
    "reminders",
    () => import("../reminders/RemindersView.tsx"),
    (m) => m.RemindersView
  )
  const lazyInvites = page(
    "invites",
    () => import("../invites/InvitesView.tsx"),
    (m) => m.InvitesView
  )
  const lazySubscription = page(
    "payments",
    () => import("../payments/SubscriptionView.tsx"),
    (m) => m.SubscriptionView
  )
  const lazyTransactions = page(
    "payments",
    () => import("../payments/TransactionsView.tsx"),
    (m) => m.TransactionsView
  )
  const lazyContact = page(
    "support",
    () => import("../support/ContactView.tsx"),
    (m) => m.ContactView
  )
  const lazySupport = page(
    undefined,
    () => import("../support/SupportView.tsx"),
    (m) => m.SupportView
  )
  const lazyAdminReports = page(
    "reports",
    () => import("../reports/AdminReportsView.tsx"),
    (m) => m.AdminReportsView
  )
  const lazyTicketDesk = page(
    "support",
    () => import("../support/TicketDeskView.tsx"),
    (m) => m.TicketDeskView
  )
  const lazyAuditLog = page(
    "audit",
    () => import("../audit/AuditLogView.tsx"),
    (m) => m.AuditLogView
  )
  return [
    {
      element: <RouteTitle />,
      errorElement: <RouteErrorView />,
      // shown while the first page of a visit loads its chunk and its feature's machines
      hydrateFallbackElement: <LoadingView />,
      children: [
        {
          id: PUBLIC_ROUTES_ID,
          element: <PublicLayout />,
          children: [
            {
              element: <RedirectIfAuthenticated />,
              children: [
                { path: "login", handle: titled("Sign in"), element: <LoginView /> },
                { path: "register", handle: titled("Create your account"), lazy: lazyRegister },
                { path: "verify", handle: titled("Verify your email"), lazy: lazyVerifyEmail }
              ]
            },
            // not turned away with a session: the link signs in whoever it was mailed to, in place of it
            { path: "sign-in-link", handle: titled("Sign in with a link"), lazy: lazySignInLink },
            { path: "forgot-password", handle: titled("Forgot password"), lazy: lazyForgotPassword },
            { path: "password-reset-confirmation", handle: titled("Reset your password"), lazy: lazyPasswordReset },
            { path: "confirm-email-change", handle: titled("Confirm email change"), lazy: lazyConfirmEmailChange }
          ]
        },
        { path: "logout", handle: titled("Signing out"), loader: loaders.logout, element: <LogoutView /> },
        {
          element: <RequireSession />,
          children: [
            {
              // the signed-in frame (header, menu, notifications) loads with the first signed-in page
              lazy: lazyLayout,
              children: [
                { index: true, handle: titled("Live streams"), lazy: lazyHome },
                // the players title themselves with what plays
                { path: "player", lazy: lazyPlayer(TV_PLAYER) },
                { path: "playersldp", lazy: lazyPlayer(LOW_LATENCY_PLAYER) },
                { path: "stream-schedule", handle: titled("Stream Schedule"), lazy: lazyGuide },
                { path: "reminders", handle: titled("Reminders"), lazy: lazyReminders },
                { path: "invites", handle: titled("Invites"), lazy: lazyInvites },
                { path: "support", handle: titled("FAQ"), lazy: lazySupport },
                { path: "contactus", handle: titled("Contact Us"), lazy: lazyContact },
                { path: "profile", handle: titled("Account settings"), lazy: lazyProfile },
                { path: "subscription", handle: titled("Subscription"), lazy: lazySubscription },
                { path: "transactions", handle: titled("Transactions"), lazy: lazyTransactions },
                {
                  element: <RequireStaff />,
                  handle: { staffOnly: true } satisfies RouteHandle,
                  children: [
                    { path: "adminreports", handle: titled("Admin Reports"), lazy: lazyAdminReports },
                    { path: "adminsupport", handle: titled("Support Tickets"), lazy: lazyTicketDesk },
                    { path: "adminaudit", handle: titled("Audit Log"), lazy: lazyAuditLog }
                  ]
                },
                { path: "*", handle: titled(NOT_FOUND_TITLE), element: <NotFoundView /> }
              ]
            }
          ]
        }
      ]
    }
  ]
}

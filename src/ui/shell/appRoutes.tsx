import type { ComponentType } from "react"
import type { LoaderFunction, RouteObject } from "react-router-dom"
import { LOW_LATENCY_PLAYER, TV_PLAYER } from "../../domain/playerChoice.ts"
import { LoginView } from "../account/LoginView.tsx"
import { LogoutView } from "./LogoutView.tsx"
import { PublicLayout } from "./PublicLayout.tsx"
import { RedirectIfAuthenticated } from "./RedirectIfAuthenticated.tsx"
import { RequireSession } from "./RequireSession.tsx"
import { Layout } from "./Layout.tsx"
import { RequireStaff } from "./RequireStaff.tsx"
import { LoadingView } from "../shared/LoadingView.tsx"
import { NOT_FOUND_TITLE, NotFoundView } from "./NotFoundView.tsx"
import { RouteErrorView } from "./RouteErrorView.tsx"
import { RouteTitle, type RouteHandle } from "./RouteTitle.tsx"

/** The player and hls.js stay out of the main bundle until a player route opens. */
const lazyPlayer = (player: typeof TV_PLAYER | typeof LOW_LATENCY_PLAYER) => async () => {
  const { PlayerView } = await import("../player/PlayerView.tsx")
  return { element: <PlayerView player={player} /> }
}

const titled = (title: string): RouteHandle => ({ title })

/**
 * Every page but sign-in is its own chunk, loaded when first opened: no page carries another
 * page's code. Sign-in stays in the app's chunk, being the page most visits start from.
 */
const page = <M,>(load: () => Promise<M>, pick: (module: M) => ComponentType) => async () => ({ Component: pick(await load()) })
const lazyHome = page(() => import("../streams/HomeView.tsx"), (m) => m.HomeView)
const lazyRegister = page(() => import("../account/RegisterView.tsx"), (m) => m.RegisterView)
const lazyVerifyEmail = page(() => import("../account/VerifyEmailView.tsx"), (m) => m.VerifyEmailView)
const lazyForgotPassword = page(() => import("../account/ForgotPasswordView.tsx"), (m) => m.ForgotPasswordView)
const lazyPasswordReset = page(() => import("../account/PasswordResetView.tsx"), (m) => m.PasswordResetView)
const lazyConfirmEmailChange = page(() => import("../account/ConfirmEmailChangeView.tsx"), (m) => m.ConfirmEmailChangeView)
const lazyProfile = page(() => import("../account/ProfileView.tsx"), (m) => m.ProfileView)
const lazyGuide = page(() => import("../guide/GuideView.tsx"), (m) => m.GuideView)
const lazyInvites = page(() => import("../invites/InvitesView.tsx"), (m) => m.InvitesView)
const lazySubscription = page(() => import("../payments/SubscriptionView.tsx"), (m) => m.SubscriptionView)
const lazyTransactions = page(() => import("../payments/TransactionsView.tsx"), (m) => m.TransactionsView)
const lazyContact = page(() => import("../support/ContactView.tsx"), (m) => m.ContactView)
const lazySupport = page(() => import("../support/SupportView.tsx"), (m) => m.SupportView)

// staff pages load their picker and charts only when opened
const lazyAdminReports = async () => {
  const { AdminReportsView } = await import("../reports/AdminReportsView.tsx")
  return { element: <AdminReportsView /> }
}
const lazyTicketDesk = async () => {
  const { TicketDeskView } = await import("../support/TicketDeskView.tsx")
  return { element: <TicketDeskView /> }
}

/** What happens on navigation, supplied by src/app where the machines meet the adapters. */
export interface RouteLoaders {
  /** Opening /logout ends the session; the view only shows how that is going. */
  readonly logout: LoaderFunction
}

export const createAppRoutes = (loaders: RouteLoaders): Array<RouteObject> => [
  {
    element: <RouteTitle />,
    errorElement: <RouteErrorView />,
    // shown while a lazy route (the players) loads on the first page of a visit
    hydrateFallbackElement: <LoadingView />,
    children: [
      {
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
            element: <Layout />,
            children: [
              { index: true, handle: titled("Live streams"), lazy: lazyHome },
              // the players title themselves with what plays
              { path: "player", lazy: lazyPlayer(TV_PLAYER) },
              { path: "playersldp", lazy: lazyPlayer(LOW_LATENCY_PLAYER) },
              { path: "stream-schedule", handle: titled("Stream Schedule"), lazy: lazyGuide },
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
                  { path: "adminsupport", handle: titled("Support Tickets"), lazy: lazyTicketDesk }
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

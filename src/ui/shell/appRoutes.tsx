import type { LoaderFunction, RouteObject } from "react-router-dom"
import { LOW_LATENCY_PLAYER, TV_PLAYER } from "../../domain/playerChoice.ts"
import { ConfirmEmailChangeView } from "../account/ConfirmEmailChangeView.tsx"
import { ForgotPasswordView } from "../account/ForgotPasswordView.tsx"
import { PasswordResetView } from "../account/PasswordResetView.tsx"
import { ProfileView } from "../account/ProfileView.tsx"
import { RegisterView } from "../account/RegisterView.tsx"
import { VerifyEmailView } from "../account/VerifyEmailView.tsx"
import { LoginView } from "../account/LoginView.tsx"
import { LogoutView } from "./LogoutView.tsx"
import { PublicLayout } from "./PublicLayout.tsx"
import { RedirectIfAuthenticated } from "./RedirectIfAuthenticated.tsx"
import { RequireSession } from "./RequireSession.tsx"
import { GuideView } from "../guide/GuideView.tsx"
import { HomeView } from "../streams/HomeView.tsx"
import { Layout } from "./Layout.tsx"
import { RequireStaff } from "./RequireStaff.tsx"
import { InvitesView } from "../invites/InvitesView.tsx"
import { SubscriptionView } from "../payments/SubscriptionView.tsx"
import { TransactionsView } from "../payments/TransactionsView.tsx"
import { ContactView } from "../support/ContactView.tsx"
import { SupportView } from "../support/SupportView.tsx"
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
              { path: "register", handle: titled("Create your account"), element: <RegisterView /> },
              { path: "verify", handle: titled("Verify your email"), element: <VerifyEmailView /> }
            ]
          },
          { path: "forgot-password", handle: titled("Forgot password"), element: <ForgotPasswordView /> },
          { path: "password-reset-confirmation", handle: titled("Reset your password"), element: <PasswordResetView /> },
          { path: "confirm-email-change", handle: titled("Confirm email change"), element: <ConfirmEmailChangeView /> }
        ]
      },
      { path: "logout", handle: titled("Signing out"), loader: loaders.logout, element: <LogoutView /> },
      {
        element: <RequireSession />,
        children: [
          {
            element: <Layout />,
            children: [
              { index: true, handle: titled("Live streams"), element: <HomeView /> },
              // the players title themselves with what plays
              { path: "player", lazy: lazyPlayer(TV_PLAYER) },
              { path: "playersldp", lazy: lazyPlayer(LOW_LATENCY_PLAYER) },
              { path: "stream-schedule", handle: titled("Stream Schedule"), element: <GuideView /> },
              { path: "invites", handle: titled("Invites"), element: <InvitesView /> },
              { path: "support", handle: titled("FAQ"), element: <SupportView /> },
              { path: "contactus", handle: titled("Contact Us"), element: <ContactView /> },
              { path: "profile", handle: titled("Account settings"), element: <ProfileView /> },
              { path: "subscription", handle: titled("Subscription"), element: <SubscriptionView /> },
              { path: "transactions", handle: titled("Transactions"), element: <TransactionsView /> },
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

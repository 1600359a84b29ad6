import { PRICE_NOTE_PER_MONTH } from "../../domain/Subscription.ts"
import { PageView } from "../shared/PageView.tsx"
import { muted, panel } from "../shared/surfaces.css.ts"
import * as styles from "./SupportView.css.ts"

// Encryption is the deployment's doing (TLS at a proxy, or none: the default is plain http), so the
// answer claims it only where the page itself arrived over https.
const safetyAnswer = (encrypted: boolean): string =>
  encrypted
    ? "Yes. Connections to this site are encrypted, passwords are stored only as secure hashes, and we never ask for card details here. Staff will never ask for your password."
    : "Passwords are stored only as secure hashes, and we never ask for card details here. Staff will never ask for your password."

const faqFor = (encrypted: boolean): ReadonlyArray<{ readonly question: string; readonly answer: string }> => [
  {
    question: "Can I cast streams to my TV?",
    answer:
      "Yes. Use the TV player: it supports Chromecast and AirPlay. Streams marked with the Chromecast or AirPlay icon can be cast from the player's controls. The low-latency player loads faster but cannot cast."
  },
  {
    question: "Is the site safe to use?",
    answer: safetyAnswer(encrypted)
  },
  {
    question: "Which browsers are supported?",
    answer:
      "Current versions of Chrome, Edge, Firefox and Safari on computers, and Chrome or Safari on phones and tablets. If a stream does not start, update your browser or try the other player."
  },
  {
    question: "How do I contact you?",
    answer: "Open a ticket from Support → Contact Us, or join our chat community from the same page. We answer tickets by email."
  },
  {
    question: "Can I share my account?",
    answer:
      "No. Accounts are personal, and watching on several connections from different places at once is detected. Invite your friends instead: you earn a reward point for each one who joins."
  },
  {
    question: "Do I have to pay?",
    answer: `Not at the moment: the site is free. If the servers need upgrading, about $${PRICE_NOTE_PER_MONTH} a month may be charged in the future, and reward points from invites can lower the price.`
  }
]

export const SupportView = () => (
  <PageView title="FAQ" lead="Answers to the questions we hear most.">
    <dl className={styles.faq}>
      {faqFor(window.location.protocol === "https:").map((entry) => (
        <div key={entry.question} className={panel()}>
          <dt className={styles.question}>{entry.question}</dt>
          <dd className={muted}>{entry.answer}</dd>
        </div>
      ))}
    </dl>
  </PageView>
)

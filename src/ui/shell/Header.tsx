import { useActorRef, useSelector } from "@xstate/react"
import { type KeyboardEvent, useRef } from "react"
import { Link, NavLink } from "react-router-dom"
import { disclosureMachine, selectIsOpen } from "../../machines/shell/disclosureMachine.ts"
import { selectIsStaff } from "../../machines/shell/sessionMachine.ts"
import { Icon } from "../shared/Icon.tsx"
import { useServices, useSession } from "../shared/ServicesContext.tsx"
import * as styles from "./Header.css.ts"
import { NavMenu } from "./NavMenu.tsx"
import { accountLinks, mainLinks, type NavLinkItem, staffLinks, supportLinks } from "./navLinks.ts"

export const Header = ({ siteName }: { readonly siteName: string }) => {
  const session = useSession()
  const isStaff = useSelector(session, selectIsStaff)
  const burger = useActorRef(disclosureMachine, useServices().actorOptions)
  const burgerOpen = useSelector(burger, selectIsOpen)
  const burgerRef = useRef<HTMLButtonElement>(null)
  const logout = () => session.send({ type: "session.logout" })
  const closeBurger = () => burger.send({ type: "menu.close" })
  // a chosen link leaves with the panel: focus waits on the burger rather than falling to <body>
  const closeBurgerToButton = () => {
    closeBurger()
    burgerRef.current?.focus()
  }
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === "Escape" && burgerOpen) closeBurgerToButton()
  }

  const mobileSection = (heading: string | null, links: ReadonlyArray<NavLinkItem>) => (
    <>
      {heading === null ? null : <li className={styles.mobileHeading}>{heading}</li>}
      {links.map((link) => (
        <li key={link.to}>
          <NavLink to={link.to} end className={styles.mobileLink} onClick={closeBurgerToButton}>
            {link.label}
          </NavLink>
        </li>
      ))}
    </>
  )

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: Escape closes whichever menu of the header is open, from wherever the focus is inside it
    <header className={`${styles.header} ${isStaff ? styles.staffBar : styles.customerBar}`} onKeyDown={onKeyDown}>
      <div className={styles.inner}>
        <Link to="/" className={styles.brand}>
          <Icon name="tv" className={styles.brandMark} size={24} />
          <span className={styles.brandName}>{siteName}</span>
        </Link>
        <nav className={styles.desktopNav} aria-label="Main">
          <ul className={styles.navList}>
            {mainLinks.map((link) => (
              <li key={link.to}>
                <NavLink to={link.to} end className={styles.navLink}>
                  {link.label}
                </NavLink>
              </li>
            ))}
            <li>
              <NavMenu id="support-menu" label="Support" links={supportLinks} />
            </li>
            {isStaff
              ? staffLinks.map((link) => (
                  <li key={link.to}>
                    <NavLink to={link.to} end className={styles.navLink}>
                      {link.label}
                    </NavLink>
                  </li>
                ))
              : null}
          </ul>
          <NavMenu id="account-menu" label="Account" links={accountLinks} actions={[{ label: "Log out", onSelect: logout }]} align="end" />
        </nav>
        <button
          ref={burgerRef}
          type="button"
          className={styles.burger}
          aria-expanded={burgerOpen}
          aria-controls="mobile-menu"
          aria-label="Menu"
          onClick={() => burger.send({ type: "menu.toggle" })}
        >
          <Icon name={burgerOpen ? "close" : "menu"} />
        </button>
      </div>
      {burgerOpen ? (
        <nav id="mobile-menu" className={styles.mobilePanel} aria-label="Main">
          <ul className={styles.mobileList}>
            {mobileSection(null, mainLinks)}
            {mobileSection("Support", supportLinks)}
            {isStaff ? mobileSection("Staff", staffLinks) : null}
            {mobileSection("Account", accountLinks)}
            <li>
              <button
                type="button"
                className={styles.mobileLink}
                onClick={() => {
                  closeBurger()
                  logout()
                }}
              >
                Log out
              </button>
            </li>
          </ul>
        </nav>
      ) : null}
    </header>
  )
}

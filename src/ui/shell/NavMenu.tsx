import { useActorRef, useSelector } from "@xstate/react"
import { type FocusEvent, type KeyboardEvent, useRef } from "react"
import { NavLink, useLocation } from "react-router-dom"
import { disclosureMachine, selectIsOpen } from "../../machines/shell/disclosureMachine.ts"
import { Icon } from "../shared/Icon.tsx"
import { useServices } from "../shared/ServicesContext.tsx"
import * as header from "./Header.css.ts"
import * as styles from "./NavMenu.css.ts"
import type { NavLinkItem } from "./navLinks.ts"

export interface NavMenuAction {
  readonly label: string
  readonly onSelect: () => void
}

interface NavMenuProps {
  readonly id: string
  readonly label: string
  readonly links: ReadonlyArray<NavLinkItem>
  readonly actions?: ReadonlyArray<NavMenuAction>
  readonly align?: "start" | "end"
}

/**
 * A disclosure menu of links (the WAI "disclosure navigation" pattern): the button says whether it
 * is expanded, Escape closes and returns focus, arrow keys move between items, leaving closes.
 */
export const NavMenu = ({ id, label, links, actions = [], align = "start" }: NavMenuProps) => {
  const menu = useActorRef(disclosureMachine, useServices().actorOptions)
  const open = useSelector(menu, selectIsOpen)
  const buttonRef = useRef<HTMLButtonElement>(null)
  const panelRef = useRef<HTMLUListElement>(null)
  const { pathname } = useLocation()
  const close = () => menu.send({ type: "menu.close" })
  // a chosen item leaves with the panel: focus waits on the button rather than falling to <body>
  const closeToButton = () => {
    close()
    buttonRef.current?.focus()
  }

  const moveFocus = (step: 1 | -1) => {
    const items = Array.from(panelRef.current?.querySelectorAll<HTMLElement>("a, button") ?? [])
    const at = items.indexOf(document.activeElement as HTMLElement)
    items[(at + step + items.length) % items.length]?.focus()
  }
  const onKeyDown = (event: KeyboardEvent) => {
    if (!open) return
    if (event.key === "Escape") {
      event.stopPropagation()
      closeToButton()
    } else if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault()
      moveFocus(event.key === "ArrowDown" ? 1 : -1)
    }
  }
  const onBlur = (event: FocusEvent<HTMLDivElement>) => {
    if (!event.currentTarget.contains(event.relatedTarget as Node | null)) close()
  }

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: Escape and focus leaving close the menu, from its button or any of its links
    <div className={styles.wrapper} onKeyDown={onKeyDown} onBlur={onBlur}>
      <button
        ref={buttonRef}
        type="button"
        className={header.navLink}
        aria-expanded={open}
        aria-controls={id}
        data-active={links.some((link) => link.to === pathname)}
        onClick={() => menu.send({ type: "menu.toggle" })}
      >
        {label}
        <Icon name="chevronDown" size={16} className={styles.chevron} />
      </button>
      {open ? (
        <ul id={id} ref={panelRef} className={align === "end" ? styles.dropdown : `${styles.dropdown} ${styles.dropdownStart}`}>
          {links.map((link) => (
            <li key={link.to}>
              <NavLink to={link.to} end className={styles.item} onClick={closeToButton}>
                {link.label}
              </NavLink>
            </li>
          ))}
          {actions.map((action) => (
            <li key={action.label}>
              <button
                type="button"
                className={styles.item}
                onClick={() => {
                  closeToButton()
                  action.onSelect()
                }}
              >
                {action.label}
              </button>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  )
}

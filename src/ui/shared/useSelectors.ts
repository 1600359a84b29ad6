import { shallowEqual, useSelector } from "@xstate/react"
import type { AnyActorRef } from "xstate"

type SnapshotOf<TActor> = TActor extends { getSnapshot(): infer TSnapshot } ? TSnapshot : undefined

/**
 * What a view reads of one actor, several selectors at once: `const { status, error } =
 * useSelectors(actor, { status: selectStatus, error: selectError })`. One subscription, and a
 * render only when one of the values changes.
 */
export const useSelectors = <
  TActor extends Pick<AnyActorRef, "subscribe" | "getSnapshot"> | undefined,
  const S extends Readonly<Record<string, (snapshot: SnapshotOf<TActor>) => unknown>>
>(
  actor: TActor,
  selectors: S
): { readonly [K in keyof S]: ReturnType<S[K]> } =>
  useSelector(
    actor,
    (snapshot: SnapshotOf<TActor>) => {
      const selected: Record<string, unknown> = {}
      for (const [name, select] of Object.entries(selectors)) selected[name] = select(snapshot)
      return selected as { readonly [K in keyof S]: ReturnType<S[K]> }
    },
    shallowEqual
  )

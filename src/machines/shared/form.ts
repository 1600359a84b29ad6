import { assign, type EventObject, type MachineContext, type ProvidedActor } from "xstate"
import { answerOf, eventOf } from "./params.ts"

// What every form machine is made of. Machines read it as one namespace (`import * as form`):
// `form.Context<F>`, `form.editing<Event>()(…)`, `form.setField()`, and so on.

/** The text of every field of a form, by field name. */
export type Values<F extends string> = Readonly<Record<F, string>>
export type Errors<F extends string> = Partial<Record<F, string>>

/** One rule per field; a rule sees every value, so a confirmation can compare with its password. */
export type Rules<F extends string> = { readonly [K in F]?: (values: Values<F>) => string | undefined }

/** A form's two events: typing into a field (`registration.change`) and sending the form (`registration.submit`). */
export type Event<P extends string, F extends string> =
  | { readonly type: `${P}.change`; readonly field: F; readonly value: string }
  | { readonly type: `${P}.submit` }

/** What every form machine keeps: each field's text and message, and one message for the whole form. */
export interface Context<F extends string> {
  readonly values: Values<F>
  readonly fieldErrors: Errors<F>
  /** why the last send did not go through, shown above the form; null when there is nothing to say */
  readonly alert: string | null
}

/** The message of every field that breaks its rule. */
export const validate = <F extends string>(rules: Rules<F>, values: Values<F>): Errors<F> => {
  const errors: Errors<F> = {}
  for (const field of Object.keys(rules) as Array<F>) {
    const message = rules[field]?.(values)
    if (message !== undefined) errors[field] = message
  }
  return errors
}

export const isValid = <F extends string>(rules: Rules<F>, values: Values<F>): boolean => Object.keys(validate(rules, values)).length === 0

/** The form after typing into one field: the new value, and that field's message gone until the next submit. */
export const change = <F extends string>(
  current: { readonly values: Values<F>; readonly fieldErrors: Errors<F> },
  field: F,
  value: string
): { values: Values<F>; fieldErrors: Errors<F> } => {
  const fieldErrors = { ...current.fieldErrors }
  delete fieldErrors[field]
  return { values: { ...current.values, [field]: value }, fieldErrors }
}

/**
 * The first of `fields` (listed in the order the form shows them) that has a message: where the
 * focus goes after a submit the form's rules refused, so keyboard and screen-reader users land on it.
 */
export const firstInvalid = <F extends string>(fields: ReadonlyArray<F>, errors: Errors<F>): F | undefined =>
  fields.find((field) => errors[field] !== undefined)

// The actions every form machine has. Each is made where the machine's `setup` lists it, which
// types it by that machine: `actions: { setField: form.setField(), showFieldErrors: form.showFieldErrors(rules) }`.

/** Typing into a field: its text changes, its message goes until the next submit. */
export const setField = <
  F extends string,
  TContext extends Context<F> & MachineContext,
  TEvent extends EventObject,
  TActor extends ProvidedActor
>() =>
  assign<TContext, TEvent, { readonly field: F; readonly value: string }, TEvent, TActor>(
    ({ context }, { field, value }) => change(context, field, value) as Partial<TContext>
  )

/** A submit the rules refused: every field's message, and none for the whole form. */
export const showFieldErrors = <
  F extends string,
  TContext extends Context<F> & MachineContext,
  TEvent extends EventObject,
  TActor extends ProvidedActor
>(
  rules: Rules<F>
) =>
  assign<TContext, TEvent, undefined, TEvent, TActor>(
    ({ context }) => ({ fieldErrors: validate(rules, context.values), alert: null }) as Partial<TContext>
  )

/** The rules passed, so no message of an earlier submit still applies. */
export const clearMessages = <
  TContext extends Context<string> & MachineContext,
  TEvent extends EventObject,
  TActor extends ProvidedActor
>() => assign<TContext, TEvent, undefined, TEvent, TActor>({ fieldErrors: {}, alert: null } as Partial<TContext>)

/**
 * The state a form waits in: typing into a field runs `setField` with the event; a submit the
 * machine's `isValid` guard passes runs `clearMessages` and goes to `submitting`, any other runs
 * `showFieldErrors` and stays. Called with the machine's event type first, so a misspelt event does not compile.
 */
export const editing =
  <E extends { readonly type: string }>() =>
  <const Change extends E["type"], const Submit extends E["type"]>(events: { readonly change: Change; readonly submit: Submit }) =>
    ({
      on: {
        [events.change]: { actions: { type: "setField", params: eventOf } },
        [events.submit]: [{ guard: "isValid", target: "submitting", actions: "clearMessages" }, { actions: "showFieldErrors" }]
      }
    }) as unknown as {
      readonly on: { readonly [K in Change]: { readonly actions: { readonly type: "setField"; readonly params: typeof eventOf } } } & {
        readonly [K in Submit]: readonly [
          { readonly guard: "isValid"; readonly target: "submitting"; readonly actions: "clearMessages" },
          { readonly actions: "showFieldErrors" }
        ]
      }
    }

type Transition = { readonly target: string; readonly actions?: unknown; readonly reenter?: boolean }
type Guarded<G extends string, T extends Transition> = { readonly guard: { readonly type: G; readonly params: typeof answerOf } } & T

/**
 * The state a form is in while its answer is on the way: busy, its call invoked with what the
 * form holds, then one of three ways out. An answer the machine's `accepted` guard takes goes
 * `accepted`; one its `refused` guard takes (the server looked and said no, for good) goes
 * `refused` when the form has such an end; anything else goes `failed`, usually back to editing
 * with the reason and everything typed kept. Actions and guards read the answer through `answerOf`.
 *
 * Called with the machine's context type first, so that `input` reads a typed context:
 * `submitting: form.submission<Context>()({ src: "send", input: ({ context }) => …, accepted: …, failed: … })`.
 */
export const submission =
  <C>() =>
  <
    const Src extends string,
    I,
    const Accepted extends Transition,
    const Failed extends Transition,
    const Refused extends Transition | undefined = undefined
  >(config: {
    readonly src: Src
    readonly input: (args: { readonly context: C }) => I
    readonly accepted: Accepted
    readonly refused?: Refused
    readonly failed: Failed
  }) => {
    const onDone = [
      { guard: { type: "accepted", params: answerOf }, ...config.accepted },
      ...(config.refused === undefined ? [] : [{ guard: { type: "refused", params: answerOf }, ...config.refused }]),
      config.failed
    ] as unknown as readonly [Guarded<"accepted", Accepted>, ...(Refused extends Transition ? [Guarded<"refused", Refused>] : []), Failed]
    return { tags: ["busy"], invoke: { src: config.src, input: config.input, onDone } } as const
  }

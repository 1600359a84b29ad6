// Params of actions and guards that need no inline arrow, so that state fragments built outside a
// machine (form.ts) stay typed by the machine that uses them.

/** An invoked call's answer, as the params of an action or guard: `params: answerOf`. */
export const answerOf = <A>({ event }: { readonly event: { readonly output: A } }): A => event.output

/** Params made from an invoked call's answer: `params: fromAnswer(failureNotice)`. */
export const fromAnswer =
  <A, P>(make: (answer: A) => P) =>
  ({ event }: { readonly event: { readonly output: A } }): P =>
    make(event.output)

/** The event itself, as the params of an action: `params: eventOf`. */
export const eventOf = <E>({ event }: { readonly event: E }): E => event

/**
 * The stand-in body of an actor that `src/app` supplies through `machine.provide`. Starting one
 * that was never supplied is a wiring mistake: it fails at once, naming the actor, instead of
 * quietly answering nothing.
 */
export const notProvided = (name: string) => (): never => {
  throw new Error(`not provided: ${name}`)
}

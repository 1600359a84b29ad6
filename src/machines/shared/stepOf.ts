/**
 * The first of `steps` (top-level states) the snapshot is in, or `otherwise`: the step of a flow a
 * page shows, read in one place instead of a chain of `matches`.
 */
export const stepOf = <S extends string>(
  snapshot: { readonly matches: (state: never) => boolean },
  steps: ReadonlyArray<S>,
  otherwise: S
): S => steps.find((step) => (snapshot.matches as (state: S) => boolean)(step)) ?? otherwise

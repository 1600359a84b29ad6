/**
 * Focus from the keyboard is a sign of the viewer; focus that a tap or click brings along is not:
 * counting it would show the hidden bar just before that same tap toggles it away again.
 */
export const isKeyboardFocus = (target: EventTarget): boolean => {
  try {
    return target instanceof Element && target.matches(":focus-visible")
  } catch {
    return true
  }
}

/**
 * jsdom has no Fullscreen API: this gives the document one that lets any element go fullscreen
 * and back, announcing each change like a browser. Returns the way to take it away again.
 */
export const fakeFullscreen = (doc: Document = document): (() => void) => {
  let current: Element | null = null
  const change = (element: Element | null) => {
    current = element
    doc.dispatchEvent(new Event("fullscreenchange"))
  }
  const define = (target: object, name: string, descriptor: PropertyDescriptor) =>
    Object.defineProperty(target, name, { configurable: true, ...descriptor })
  define(doc, "fullscreenEnabled", { get: () => true })
  define(doc, "fullscreenElement", { get: () => current })
  define(doc, "exitFullscreen", { value: async () => change(null) })
  define(HTMLElement.prototype, "requestFullscreen", {
    value: async function (this: HTMLElement) {
      change(this)
    }
  })
  return () => {
    for (const name of ["fullscreenEnabled", "fullscreenElement", "exitFullscreen"]) Reflect.deleteProperty(doc, name)
    Reflect.deleteProperty(HTMLElement.prototype, "requestFullscreen")
  }
}

// Imported first by index.ts, so that it runs before the bundled undici loads. undici's cookie
// helpers (which the action never uses) read `globalThis.Headers` as they load, to accept Node's
// own Headers too, and that one read makes Node load its own copy of undici: about 6 ms of a run's
// start on Node 24, spent before the create. So `Headers` is taken off the global object while
// the bundle loads (deleting it loads nothing), and index.ts puts it back as Node has it: a global
// that loads Node's Headers on first use.
const hidden = Reflect.deleteProperty(globalThis, 'Headers')

/** Puts `Headers` back on the global object, as Node defines it: loaded on first use. */
export function restoreWebGlobals(): void {
  if (!hidden || 'Headers' in globalThis) return
  const settle = (value: unknown): void =>
    void Object.defineProperty(globalThis, 'Headers', { value, writable: true, configurable: true, enumerable: false })
  Object.defineProperty(globalThis, 'Headers', {
    configurable: true,
    enumerable: false,
    // Node's Headers is the class of a Response's headers; Response loads Node's undici, as Headers would.
    get() {
      const value = new Response().headers.constructor
      settle(value)
      return value
    },
    set: settle
  })
}

// The console listeners a `register*` function of src/koishi/console/ adds, captured on a stand-in
// console (the real console checks the authority), so a spec calls them as the page would.
import type { Context } from 'koishi'

export interface Captured {
  got: Map<string, { fn: (...a: any[]) => any; authority?: number }>
  /** calls listener `name` as the page does */
  send(name: string, ...args: any[]): Promise<any>
}

export function captureListeners(app: Context, register: (ctx: Context) => void): Captured {
  const got: Captured['got'] = new Map()
  const console = { addListener: (name: string, fn: any, o: any) => { got.set(name, { fn, authority: o?.authority }) } }
  register(new Proxy(app, { get: (t, k) => k === 'console' ? console : Reflect.get(t, k) }) as unknown as Context)
  return { got, send: async (name, ...args) => got.get(name)!.fn(...args) }
}

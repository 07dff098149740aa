// Guest code evaluated in every fresh QuickJS context before the program. It captures the
// intrinsics it needs up front, so a program that overwrites JSON, Promise or Error can only
// break itself; its state lives in this closure, out of the program's reach. The only globals
// it adds are `tools` and `console`.
//
// Tool calls don't call into the host: they append `id,toolIndex,length;inputJson` to a queue
// that the worker takes after each job run, and wait on a guest promise that the worker settles
// with settle(). Far cheaper per call than a host function plus a host-made promise.
// JSON.stringify output is well-formed UTF-16, so the lengths survive the UTF-8 round trip.
export const PRELUDE = String.raw`(function (hostLog, hostFatal, namesJson, maxCalls) {
  'use strict'
  const G = globalThis
  const stringify = JSON.stringify, parse = JSON.parse, S = String, E = Error, P = Promise
  const defineProperty = Object.defineProperty, freeze = Object.freeze, create = Object.create
  const names = parse(namesJson)
  const list = names.length ? names.join(', ') : '(none)'
  const named = (name, message) => {
    const e = new E(message)
    defineProperty(e, 'name', { value: name, writable: true, configurable: true })
    return e
  }

  const waiting = create(null)
  let queue = '', seq = 0, calls = 0
  const request = (index, input) => {
    if (calls >= maxCalls) {
      hostFatal()
      throw named('ToolCallLimitError', 'the program made more than ' + maxCalls + ' tool calls')
    }
    calls++
    let json = input === undefined ? '' : stringify(input)
    if (json === undefined) json = ''
    const id = ++seq
    queue += id + ',' + index + ',' + json.length + ';' + json
    return new P((resolve, reject) => { waiting[id] = [resolve, reject] })
  }

  const rejected = (e) => new P((resolve, reject) => { reject(e) })
  const table = {}
  for (let i = 0; i < names.length; i++) {
    const index = i
    // Not an async function: the program's await resumes in one job when settle() resolves the
    // promise with the parsed output. Errors still come out as a rejected promise, as they would.
    const fn = (input) => {
      try {
        return request(index, input)
      } catch (e) {
        return rejected(e)
      }
    }
    defineProperty(fn, 'name', { value: names[i] })
    defineProperty(table, names[i], { value: fn, enumerable: true })
  }
  freeze(table)
  const tools = new Proxy(table, {
    get (t, k) {
      // 'then' and 'toJSON' stay undefined so await/stringify of tools behave normally
      if (typeof k !== 'string' || k in t || k === 'then' || k === 'toJSON') return t[k]
      throw new TypeError('Unknown tool ' + stringify(k) + '. Available tools: ' + list)
    },
  })

  const fmt = (v) => {
    if (typeof v === 'string') return v
    try {
      if (v !== null && typeof v === 'object') {
        if (typeof v.stack === 'string' && 'message' in v) return S(v.name) + ': ' + S(v.message)
        const s = stringify(v)
        if (s !== undefined) return s
      }
      if (typeof v === 'function') return '[Function ' + (v.name || 'anonymous') + ']'
      return S(v)
    } catch (e) {
      try { return S(v) } catch (e2) { return '[unprintable]' }
    }
  }
  let logsFull = false
  const logger = (level) => function () {
    if (logsFull) return
    let line = ''
    for (let i = 0; i < arguments.length; i++) line += (i ? ' ' : '') + fmt(arguments[i])
    logsFull = hostLog(level, line)
  }
  const con = freeze({ log: logger(0), info: logger(0), debug: logger(0), warn: logger(1), error: logger(2) })

  defineProperty(G, 'tools', { value: tools, writable: true, configurable: true })
  defineProperty(G, 'console', { value: con, writable: true, configurable: true })

  return {
    take () {
      const q = queue
      queue = ''
      return q
    },
    // payload: output JSON (undefined for an undefined output), or the message when errorName is set
    settle (id, payload, errorName) {
      const w = waiting[id]
      if (w === undefined) return
      delete waiting[id]
      if (errorName !== undefined) return w[1](named(errorName, payload))
      if (payload === undefined) return w[0](undefined)
      let value
      try {
        value = parse(payload)
      } catch (e) {
        return w[1](e)
      }
      w[0](value)
    },
    serialize (v) {
      if (v === undefined) return undefined
      if (typeof v === 'function' || typeof v === 'symbol') throw new TypeError('the returned value is a ' + typeof v)
      return stringify(v)
    },
    describe (e) {
      let name = 'Error', message, stack
      if (e !== null && (typeof e === 'object' || typeof e === 'function')) {
        try { if (e.name !== undefined) name = S(e.name) } catch (x) {}
        try { message = e.message === undefined ? fmt(e) : S(e.message) } catch (x) { message = '(unreadable error)' }
        try { if (typeof e.stack === 'string') stack = e.stack } catch (x) {}
      } else {
        message = 'Uncaught ' + fmt(e)
      }
      return stringify({ name, message, stack })
    },
  }
})`

// SPEC §4.6 and §10 under load: 100 channels × 5 mentions arrive at once. Every fact reaches a
// request of its own channel and its channel's history file, in arrival order; no request mixes
// channels; nothing is logged as a warning. The time and memory of the burst are printed.
import { expect } from 'chai'
import { Harness, call } from '../support/harness'
import { factTexts, hasFactsInOrder, readHistoryWhen } from '../support/faults'

const CHANNELS = 100
const PER_CHANNEL = 5
const MARK = /burst-c(\d+)-m(\d+)/g

const realSetInterval = globalThis.setInterval
const realClearInterval = globalThis.clearInterval

/** The burst markers a request shows, as [channel, message] pairs. */
function marksOf(body: any): [number, number][] {
  const text = JSON.stringify(body?.messages ?? [])
  return [...text.matchAll(MARK)].map(m => [Number(m[1]), Number(m[2])])
}

describe('faults: a burst of 100 channels × 5 mentions', function () {
  this.timeout(30000)
  let h: Harness
  afterEach(async () => { await h?.stop() })

  it('every fact reaches its own channel\'s request and history in arrival order; no warnings', async () => {
    h = await Harness.start()
    h.server.fallback({ toolCalls: [call('finish', {})] })
    // One mock client per channel, made before the clock starts: every client adds a listener
    // that runs for every message of the app (500 clients would make the mock, not the plugin,
    // the slow part). Each message still comes from its own user.
    const clients = Array.from({ length: CHANNELS }, (_, c) => h.client(`user${c}-0`, `room${c}`))
    const say = (c: number, m: number, text: string) => {
      const user = `user${c}-${m}`
      clients[c].event.user = { id: user, name: user }   // read synchronously by receive()
      return clients[c].receive(text)
    }

    global.gc?.()
    const heapBefore = process.memoryUsage().heapUsed
    const rssBefore = process.memoryUsage().rss
    let rssPeak = rssBefore
    let heapPeak = heapBefore
    const sampler = realSetInterval(() => {
      const m = process.memoryUsage()
      rssPeak = Math.max(rssPeak, m.rss)
      heapPeak = Math.max(heapPeak, m.heapUsed)
    }, 50)
    const started = Date.now()
    let received = 0, answered = 0
    try {
      // message m of every channel, then message m+1: channels interleave, each keeps its own order
      const all: Promise<unknown>[] = []
      for (let m = 0; m < PER_CHANNEL; m++) {
        for (let c = 0; c < CHANNELS; c++) all.push(say(c, m, `<at id="514"/> burst-c${c}-m${m} hello`))
      }
      await Promise.all(all)
      received = Date.now() - started
      // every fact shown in some request
      const seen = () => new Set(h.server.requests.flatMap(r => marksOf(r.body).map(([c, m]) => `${c}:${m}`))).size
      await h.until(() => seen() === CHANNELS * PER_CHANNEL, `all ${CHANNELS * PER_CHANNEL} facts in requests (seen ${seen()})`, 20000)
      await h.settled(20000)
      answered = Date.now() - started
    } finally {
      realClearInterval(sampler)
    }
    const rssAfter = process.memoryUsage().rss
    global.gc?.()   // with --expose-gc the growth is what the burst retained, not garbage
    const heapAfter = process.memoryUsage().heapUsed
    const mb = (n: number) => (n / 1048576).toFixed(1) + ' MB'
    console.log(`      burst: ${CHANNELS} channels × ${PER_CHANNEL} mentions; every client.receive() resolved after ${received} ms, every fact shown and every turn ended after ${answered} ms; ${h.server.requests.length} model requests`)
    console.log(`      burst memory: rss ${mb(rssBefore)} → peak ${mb(rssPeak)} (+${mb(rssPeak - rssBefore)}), after ${mb(rssAfter)}; heap ${mb(heapBefore)} → peak ${mb(heapPeak)}, after ${mb(heapAfter)} (growth ${mb(heapAfter - heapBefore)}${global.gc ? ', after a full GC' : '; run with --expose-gc for retained growth'})`)

    // no request mixes channels, and each channel's facts appear in its requests in arrival order
    const seenBy = new Map<number, Set<number>>()
    for (const r of h.server.requests) {
      const marks = marksOf(r.body)
      const channels = new Set(marks.map(([c]) => c))
      expect(channels.size, `request #${r.index} shows facts of channels ${[...channels].join(', ')}`).to.be.at.most(1)
      const order = marks.map(([, m]) => m)
      expect(order, `request #${r.index}: facts in arrival order`).to.deep.equal([...order].sort((a, b) => a - b))
      for (const [c, m] of marks) {
        if (!seenBy.has(c)) seenBy.set(c, new Set())
        seenBy.get(c).add(m)
      }
    }
    for (let c = 0; c < CHANNELS; c++) {
      expect([...(seenBy.get(c) ?? [])].sort(), `facts of room${c} shown to the model`).to.deep.equal([0, 1, 2, 3, 4])
    }

    // every fact on disk, in its channel's file, in arrival order
    for (let c = 0; c < CHANNELS; c++) {
      const history = await readHistoryWhen(h, `group:room${c}`, r => hasFactsInOrder(r, [0, 1, 2, 3, 4].map(m => `burst-c${c}-m${m} `)))
      expect(history.broken, `room${c}: every line parses`).to.deep.equal([])
      const facts = factTexts(history).map(t => [...t.matchAll(MARK)].map(m => `${m[1]}:${m[2]}`)).flat()
      expect(facts, `room${c}: facts on disk`).to.deep.equal([0, 1, 2, 3, 4].map(m => `${c}:${m}`))
      const users = history.entries.filter(e => e.type === 'fact').map(e => e.fact.user.id)
      expect(users).to.deep.equal([0, 1, 2, 3, 4].map(m => `user${c}-${m}`))
    }
    expect(h.warnings()).to.deep.equal([])
    expect(h.sent).to.have.length(0)
  })
})

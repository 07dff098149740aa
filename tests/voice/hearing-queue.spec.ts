// Hearing's background queue (SPEC §20, util/background-queue.ts): two voices at once, at most 200
// waiting; past that the oldest waiting is stored untranscribed with its reason and the log says
// so once; stop drops what waits and nothing is appended after it.
import { expect } from 'chai'
import { format } from 'node:util'
import { DEFAULT_VOICE } from '../../src/voice/config'
import type { Entry, TranscriptEntry } from '../../src/history/entries'
import { systemClock } from '../../src/util/clock'
import { Hearing } from '../../src/voice/hearing'
import { tone, wav } from '../support/audio-fixtures'

const WAV = wav(tone(1))

function hearing() {
  const appended: TranscriptEntry[] = []
  const warnings: string[] = []
  const held: (() => void)[] = []
  let asked = 0
  const calls = {
    // the first two transcriptions hang until released, the others answer at once
    run: (spec: { signal?: AbortSignal }) => new Promise((resolve, reject) => {
      const answer = () => resolve({ result: { text: 'hello' } })
      if (asked++ >= 2) return answer()
      held.push(answer)
      spec.signal?.addEventListener('abort', () => reject(spec.signal!.reason))
    }),
    handle: (): undefined => undefined,
    embed: (): undefined => undefined,
  }
  const assets = {
    fetched: async () => true,
    sidecar: async () => ({}),
    bytes: async () => ({ data: WAV, mediaType: 'audio/wav' }),
  }
  const h = new Hearing({
    config: { ...DEFAULT_VOICE, stt: 'ear' }, assets: assets as any, calls: calls as any, clock: systemClock,
    logger: { debug() {}, info() {}, error() {}, warn: (f: string, ...a: unknown[]) => { warnings.push(format(f, ...a)) } },
    append: async (_key: string, entries: Entry[]) => { appended.push(...entries as TranscriptEntry[]) },
  })
  const hear = (n: number) => h.hear(`asset://voice-${n}`, { conversation: 'g', id: String(n), channel: 'group:1', user: { id: 'a', name: 'A' } })
  return { h, hear, appended, warnings, held }
}

const until = async (cond: () => boolean) => {
  for (let i = 0; i < 500 && !cond(); i++) await new Promise(r => setTimeout(r, 5))
}

describe('hearing: the background queue', () => {
  it('past 200 waiting voices the oldest waiting is stored untranscribed, told once; the others are transcribed', async () => {
    const { h, hear, appended, warnings, held } = hearing()
    for (let n = 0; n < 204; n++) hear(n)
    await until(() => held.length === 2)
    held.forEach(release => release())
    await h.idle()
    expect(appended).to.have.length(204)
    const dropped = appended.filter(t => t.why !== undefined)
    expect(dropped.map(t => t.message.id)).to.deep.equal(['2', '3'])
    expect(dropped[0].why).to.equal('too many voices waited to be transcribed')
    expect(appended.filter(t => t.text === 'hello')).to.have.length(202)
    expect(warnings).to.have.length(1)
    expect(warnings[0]).to.match(/more than 200 voice messages wait to be transcribed/)
  })

  it('stop drops the waiting voices and aborts the running ones; nothing is appended after it', async () => {
    const { h, hear, appended, held } = hearing()
    for (let n = 0; n < 5; n++) hear(n)
    await until(() => held.length === 2)
    h.stop()
    await h.idle()
    expect(appended).to.deep.equal([])
    hear(9)
    await h.idle()
    expect(appended).to.deep.equal([])
  })
})

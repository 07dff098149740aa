// 7. A 20-message send_message with the default typing config spends the delays the formula gives.
import { mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import { h } from 'koishi'
import { configSchema } from '../src/runtime/config-of-parts'
import { typingDelay } from '../src/typing/delay'
import { visibleText } from '../src/util/elements'
import { seeded } from './data'
import { benchRuntime, directFact, scriptedModel, sendCall, turn } from './runtime-setup'
import type { Mode, Row } from './measure'

const MESSAGES = [
  'ok', '好的', 'hello there', '今天天气不错', 'lol', 'すごい！', 'see you at 3pm', '这个问题我想一想再回复你，可以吗',
  'ㅋㅋㅋ', 'Mixed 中文 and English', 'brb', '稍等一下', 'ありがとうございます', 'that works for me', '嗯嗯',
  'Let me check the logs first', '明天见', 'np', '잘 자요', 'ok bye',
]

export async function typingPace(mode: Mode): Promise<Row[]> {
  const dir = join(mode.tmp, 'typing')
  await mkdir(dir, { recursive: true })
  // Every random number the runtime draws is recorded, so the expected sum uses the very same jitter.
  const source = seeded(42)
  const drawn: number[] = []
  const random = () => { const r = source(); drawn.push(r); return r }
  const sends: number[] = []
  let wokeAt = 0
  const runtime = await benchRuntime({
    dataDir: dir, model: scriptedModel(() => [sendCall(MESSAGES)]), random,
    onSend: (channel) => {
      // The runtime's own clock (Date.now) and its wake-up time, so both ends use one clock.
      if (!sends.length) runtime.conversation(channel).then(c => { wokeAt = c.currentTurn?.wokeAt ?? NaN })
      sends.push(Date.now())
    },
  })
  await turn(runtime, directFact(1))
  await runtime.stop()
  if (sends.length !== MESSAGES.length) throw new Error(`${sends.length} of ${MESSAGES.length} messages were sent`)
  if (drawn.length !== MESSAGES.length) throw new Error(`the runtime drew ${drawn.length} random numbers, expected ${MESSAGES.length}`)

  const typing = configSchema({ profiles: [{ id: 'p' }] } as any).profiles[0].typing
  const delays = MESSAGES.map((m, i) => typingDelay(visibleText(h.parse(m)), typing, () => drawn[i]))
  const expected = delays.reduce((a, b) => a + b, 0)
  // The first message is credited with the time since the wake-up, so wake-up → first send ≈ delays[0].
  const spent = sends[sends.length - 1] - wokeAt
  const asBrief = sends[sends.length - 1] - sends[0] + delays[0]
  const ratio = spent / expected
  return [{
    benchmark: '7 typing: 20 messages, default typing config, wake-up to last send', figure: spent / 1000, unit: 's',
    baseline: expected / 1000, baselineLabel: 'Σ typingDelay, same random draws', ratio, target: 'ratio 0.9–1.1', pass: ratio >= 0.9 && ratio <= 1.1,
    note: `first to last send + first delay: ${(asBrief / 1000).toFixed(2)} s; wake-up to first send ${sends[0] - wokeAt} ms for a first delay of ${delays[0].toFixed(0)} ms`,
  }]
}

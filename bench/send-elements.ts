// The element check of send_message (SPEC §22 "What it sends cannot reach the host") on a typical
// send of three messages (a quote and a mention, a face and bold text, an image): parse + check
// against the bare parse send_message did before the check. On the hot path of every send.
import h from '@satorijs/element'
import { readMessage } from '../src/tools/send-elements'
import { interleave, median, type Mode, type Row } from './measure'

const MESSAGES = [
  '<quote id="1234"/><at id="2002"/> 对，就是那家店，周末人很多',
  '我上次去的时候排了半小时 <face name="斜眼笑"/> 不过 <b>真的</b> 好吃',
  '<img src="local://photos/ramen.jpg"/>这是那天拍的',
]
/** sends per timed sample: one send takes microseconds */
const SENDS = 2000

export async function sendElements(mode: Mode): Promise<Row[]> {
  const subject = () => {
    for (let i = 0; i < SENDS; i++) {
      const dropped: { src: string; code: string; message: string }[] = []
      for (const m of MESSAGES) readMessage(m, dropped)
    }
  }
  const baseline = () => {
    for (let i = 0; i < SENDS; i++) for (const m of MESSAGES) h.parse(m)
  }
  const t = await interleave({ subject, baseline }, mode.full ? 31 : 15, 3)
  const perSend = (ms: number) => ms * 1000 / SENDS
  const ratio = median(t.subject) / median(t.baseline)
  return [{
    benchmark: '23 send_message element check, a send of 3 messages (parse + check)',
    figure: perSend(median(t.subject)), unit: 'µs', baseline: perSend(median(t.baseline)), baselineLabel: 'h.parse alone',
    ratio, target: 'ratio ≤ 1.5', pass: ratio <= 1.5,
    note: 'the check walks the parsed tree once: what it adds to a send must stay a small share of parsing it',
  }]
}

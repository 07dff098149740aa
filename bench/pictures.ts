// 31. Pictures (SPEC §24): what the draw tool adds to the bare
// images call. Through a Harness runtime (the real part, ModelCalls with the usage book and the
// budget gate, the AI SDK's generateImage, the asset store), the tool's execute against the same
// request made with a plain fetch + JSON.parse + base64 decode, both against FakeImages answering
// a 1.5 MB picture (about a 1024×1024 PNG), interleaved. Target ≤ 1.2×.
import { randomBytes } from 'node:crypto'
import { picturesPart } from '../src/pictures/part'
import type { ToolCallContext } from '../src/contract/tool'
import { FakeImages } from '../tests/support/fake-images'
import { Harness } from '../tests/support/harness'
import { interleave, median, type Mode, type Row } from './measure'

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])

export async function drawOverhead(mode: Mode): Promise<Row[]> {
  const images = await FakeImages.start()
  const h = await Harness.start({ extraModels: [images.model()], profile: { images: { model: 'painter', perUserDay: 10_000 } } })
  try {
    // distinct bytes each time: the asset store keeps one id per distinct picture
    images.generations.fallback(() => ({ picture: Buffer.concat([PNG_SIGNATURE, randomBytes(1.5 * 1024 * 1024)]) }))
    // the runtime is made by its first message
    h.server.script({ toolCalls: [{ name: 'finish', arguments: {} }] })
    await h.client('alice').receive('hi')
    await h.settled()
    const [rt] = await h.app.kotodama.list()
    const part = rt.part(picturesPart)!
    const [[, draw]] = [...part.tools!()]
    const ctx: ToolCallContext = {
      callId: 'bench', fromProgram: false, signal: new AbortController().signal,
      turn: { number: 1, wokeAt: 0, conversation: 'private:alice', chat: { channel: 'private:alice', direct: true, user: 'alice' } },
    }
    const bare = async () => {
      const res = await fetch(`${images.baseURL}/images/generations`, {
        method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer sk-img' },
        body: JSON.stringify({ model: 'dall-e-3', prompt: 'a cat', n: 1, size: '1024x1024', response_format: 'b64_json' }),
      })
      const data = (await res.json()) as { data: { b64_json: string }[] }
      if (Buffer.from(data.data[0].b64_json, 'base64').length < 1024) throw new Error('no picture')
    }
    const tool = async () => {
      const r = await draw.execute({ prompt: 'a cat' }, ctx)
      if (!r.ok) throw new Error(JSON.stringify(r.error))
    }
    const reps = mode.full ? 40 : 15
    const t = await interleave({ bare, tool }, reps, 3)
    const ratio = median(t.tool) / median(t.bare)
    return [{
      benchmark: '31 draw over the bare images call (1.5 MB picture)', figure: median(t.tool), unit: 'ms',
      baseline: median(t.bare), baselineLabel: 'fetch + JSON.parse + base64', ratio, target: '≤ 1.2×', pass: ratio <= 1.2,
    }]
  } finally {
    await h.stop()
    await images.close()
  }
}

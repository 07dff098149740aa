// 30. Skills in the system prompt (SPEC §24): the fixed part of a request (system prompt + tool
// declarations) with 50 skills listed against none, in Qwen3 tokens, through a real Runtime; and
// the system prompt of two turns compared byte for byte (the prompt cache holds).
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { LanguageModelV3 } from '@ai-sdk/provider'
import type { Mode, Row } from './measure'
import { benchRuntime, directFact, turn, usage } from './runtime-setup'
import { qwen3Tokens } from './tokens'

const SKILLS = 50

/** `SKILLS` skills with descriptions of the length real ones have (OpenClaw's: 60–200 characters; the prompt clips at 80). */
async function writeSkills(root: string, describe: (i: number) => string) {
  for (let i = 0; i < SKILLS; i++) {
    const name = `skill-${String(i).padStart(2, '0')}`
    await mkdir(join(root, name), { recursive: true })
    const description = describe(i)
    await writeFile(join(root, name, 'SKILL.md'), `---\nname: ${name}\ndescription: ${description}\n---\n\n# ${name}\n\nSteps.\n`)
  }
}

interface Sent { system: string; tools: string }

function recording(out: Sent[]): LanguageModelV3 {
  let id = 0
  return {
    specificationVersion: 'v3', provider: 'bench', modelId: 'm', supportedUrls: {},
    async doGenerate(o) {
      out.push({ system: String(o.prompt[0].content), tools: JSON.stringify(o.tools ?? []) })
      return { content: [{ type: 'tool-call', toolCallId: `c${++id}`, toolName: 'finish', input: '{}' }], finishReason: { unified: 'tool-calls', raw: undefined }, usage, warnings: [] }
    },
    async doStream() {
      throw new Error('the bench model does not stream')
    },
  }
}

/** Two turns of one runtime; the requests it sent. */
async function requests(dir: string, dirs: string[]): Promise<Sent[]> {
  const out: Sent[] = []
  const runtime = await benchRuntime({ dataDir: dir, model: recording(out), profile: { skills: { dirs } } })
  try {
    await turn(runtime, directFact(1, 'first'))
    await turn(runtime, directFact(1, 'second'))
  } finally {
    await runtime.stop()
  }
  return out
}

const ENGLISH = (i: number) => `Use when a member asks for task number ${i} of the group: gathers what it needs with read, then answers in one short message `
  + 'and notes what it learned in memory.'
const CHINESE = (i: number) => `当群友请求第${i}号任务时使用：先用 read 收集所需的信息，然后用一条简短的消息回答，并把学到的东西记在记忆里。`

export async function skills(mode: Mode): Promise<Row[]> {
  const root = join(mode.tmp, 'skills', 'folders')
  const zh = join(mode.tmp, 'skills', 'folders-zh')
  await writeSkills(root, ENGLISH)
  await writeSkills(zh, CHINESE)
  const none = await requests(join(mode.tmp, 'skills', 'none'), [])
  const fifty = await requests(join(mode.tmp, 'skills', 'fifty'), [root])
  const chinese = await requests(join(mode.tmp, 'skills', 'fifty-zh'), [zh])
  const tokens = (s: Sent) => qwen3Tokens(s.system) + qwen3Tokens(s.tools)
  const [base, listed] = [tokens(none[0]), tokens(fifty[0])]
  const more = listed - base
  const stable = fifty.length >= 2 && fifty[0].system === fifty[1].system
  return [{
    benchmark: `30 skills: the fixed part with ${SKILLS} skills listed, Qwen3 tokens more than none`, figure: more, unit: 'tokens',
    baseline: base, baselineLabel: 'no skills', ratio: listed / base, target: '≤ 1,500 more, byte-stable', pass: more <= 1500 && stable,
    note: `system prompt + tool declarations: ${base} tokens without skills, ${listed} with ${SKILLS} (English descriptions of ${ENGLISH(10).length} characters, `
      + `clipped to 80 in the prompt); the system prompt of the second turn is ${stable ? 'byte-identical to' : 'DIFFERENT from'} the first's`,
  }, {
    benchmark: `30 skills: the same with Chinese descriptions (informational)`, figure: tokens(chinese[0]) - base, unit: 'tokens',
    baseline: base, baselineLabel: 'no skills', ratio: tokens(chinese[0]) / base,
    note: `descriptions of ${CHINESE(10).length} characters; a non-ASCII character counts 3 of the 80 units, so about 26 are shown`,
  }]
}

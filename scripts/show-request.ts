// Prints one model request as the mind receives it at default settings (issue 38: the protocol
// reviewed as prose): the system prompt, the tool declarations and the messages of a short group chat.
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { LanguageModelV3CallOptions } from '@ai-sdk/provider'
import { benchRuntime, BOT, scriptedModel, sendCall, turn } from '../bench/runtime-setup'

async function main() {
  const dir = await mkdtemp(join(tmpdir(), 'kotodama-request-'))
  let last: LanguageModelV3CallOptions | undefined
  const model = scriptedModel(() => [sendCall(['hi'])])
  const doGenerate = model.doGenerate.bind(model)
  model.doGenerate = async o => { last = o; return doGenerate(o) }
  const runtime = await benchRuntime({ dataDir: dir, model })
  try {
    const direct = process.argv.includes('--private')
    const channel = direct ? 'private:42' : 'group:7'
    let n = 0
    for (const [user, name, content] of [['42', 'Alice', '大家好 <face name="斜眼笑"/>'], ['43', '小王', `<at id="1"/> 你还记得上次说去香山吗？`]]) {
      await turn(runtime, {
        id: `m${++n}`, at: Date.now(), bot: BOT, channel, guildId: direct ? undefined : '7', direct,
        user: { id: user, name }, content, mentionsBot: content.includes('<at'),
      })
    }
  } finally {
    await runtime.stop()
    await rm(dir, { recursive: true, force: true })
  }
  const [system, ...messages] = last!.prompt
  if (process.argv.includes('--json')) {
    // the fixed part as bench 12 counts it: the system prompt and the tools' JSON
    console.log(JSON.stringify({ system: system.content, tools: JSON.stringify(last!.tools ?? []) }, null, 1))
    return
  }
  console.log('=== system\n' + system.content)
  console.log('=== tools')
  for (const t of last!.tools ?? []) console.log(JSON.stringify(t))
  console.log('=== messages')
  for (const m of messages) console.log(JSON.stringify(m, null, 1))
}

main().catch(e => { console.error(e); process.exit(1) })

// 26. Acts (SPEC §23): an act-only answer goes out without a typing pause. Through the real OneBot
// adapter against the fake NapCat, with the default typing config: the time from the member's
// message to NapCat receiving `set_msg_emoji_like` (an act-only answer) against the time to
// `send_group_msg` (a text answer). What kotodama adds after the model answered (the fake model's
// request received → the act at NapCat) is held against the bare platform call (the adapter's
// request of the same action, sent straight to NapCat) + 5 ms.
import { DEFAULT_TYPING } from '../src/config/defaults'
import { seg } from '../tests/support/fakes/onebot'
import { OneBotHarness, call } from '../tests/support/onebot-harness'
import { median, now, type Mode, type Row } from './measure'

const GROUP = 555
const ALICE = 2001

/** Records when each element is pushed onto `list`, by its index in `list`. */
function stamped<T>(list: T[]): number[] {
  const at: number[] = new Array(list.length).fill(NaN)
  const push = list.push.bind(list)
  list.push = (...items: T[]) => {
    for (const _ of items) at.push(now())
    return push(...items)
  }
  return at
}

export async function acts(mode: Mode): Promise<Row[]> {
  const h = await OneBotHarness.start({ profile: { typing: DEFAULT_TYPING } })
  try {
    const actions = stamped(h.napcat.calls)
    const asked = stamped(h.server.chat.requests)
    const target = await h.napcat.groupMessage({ group: GROUP, user: ALICE, nickname: 'Alice', text: 'I passed my exam' })
    const rounds = mode.full ? 12 : 5
    const wakeToAct: number[] = []
    const afterModel: number[] = []
    const wakeToText: number[] = []
    const bare: number[] = []
    /** one turn: the member mentions the bot; resolves with when it woke and when `action` reached NapCat */
    const turn = async (answer: string, action: string) => {
      h.server.script({ toolCalls: [call('send_message', { messages: [answer] })] })
      const before = h.napcat.calls.length
      const request = h.server.chat.requests.length
      const woke = now()
      await h.napcat.groupMessage({ group: GROUP, user: ALICE, nickname: 'Alice', segments: [seg.at(h.napcat.selfId), seg.text(' well?')] })
      await h.until(() => h.napcat.calls.slice(before).some(c => c.action === action), action, 20_000)
      const i = h.napcat.calls.findIndex((c, k) => k >= before && c.action === action)
      await h.settled(20_000)
      return { woke, at: actions[i], modelAsked: asked[request] }
    }
    for (let r = 0; r < rounds; r++) {
      const act = await turn(`<react emoji="赞" to="${target.message_id}"/>`, 'set_msg_emoji_like')
      wakeToAct.push(act.at - act.woke)
      afterModel.push(act.at - act.modelAsked)
      const text = await turn('congratulations, well done!', 'send_group_msg')
      wakeToText.push(text.at - text.woke)
      // the same action straight through the adapter: the platform call alone
      const before = h.napcat.calls.length
      const t0 = now()
      await (h.bot as any).internal._request('set_msg_emoji_like', { message_id: target.message_id, emoji_id: '76' })
      bare.push(actions[before] - t0)
    }
    const act = median(wakeToAct)
    const added = median(afterModel)
    const platform = median(bare)
    return [
      {
        benchmark: '26 acts: wake-to-act of an act-only answer (default typing)', figure: act, unit: 'ms',
        baseline: median(wakeToText), baselineLabel: 'wake-to-send of a text answer', ratio: act / median(wakeToText),
        target: 'no typing pause', pass: act < DEFAULT_TYPING.minDelay * (1 - DEFAULT_TYPING.jitter),
        note: `${rounds} rounds each; the text answer pauses as a person types (minDelay ${DEFAULT_TYPING.minDelay} ms)`,
      },
      {
        benchmark: '26 acts: from the model asked to the act at NapCat', figure: added, unit: 'ms',
        baseline: platform, baselineLabel: 'the bare platform call (adapter → NapCat)', ratio: added / platform,
        target: '≤ bare call + 5 ms', pass: added <= platform + 5,
        note: 'the model answers at once (fake server); what remains is the answer\'s parse, the act\'s checks and the call',
      },
    ]
  } finally {
    await h.stop()
  }
}

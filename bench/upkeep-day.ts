// A day of a busy group for the upkeep benches (33): 1,000 messages from 30 people, short Chinese
// and English chat lines, one in forty a longer one, and a few facts people state about
// themselves (what a scripted upkeep proposes). Seeded: every run writes the same day. Ids look
// like QQ's (numbers of 9–10 digits, as NapCat gives them), since a line's id is part of its cost.
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { personRel } from '../src/people/people-path'
import { WRITERS_DIR } from '../src/people/writers'
import { safeName } from '../src/util/safe-name'
import { seededRandom } from './seeded-random'

export interface DayMessage { id: string; at: number; uid: string; name: string; text: string; fact?: string }

const NAMES = [
  '小王', '李娜', '张伟', '陈晨', '刘洋', '赵敏', '阿杰', '小鱼', '老周', '糖糖', '木子', '夏天', '大熊', '柚子', '阿凯',
  'Alice', 'Bob', 'Carol', 'Dave', 'Erin', 'Frank', 'Grace', 'Kenji', 'Mia', 'Leo', 'Nora', 'Sam', 'Yuki', 'Tom', 'Ivy',
]

const ZH = [
  '哈哈哈', '+1', '笑死', '在吗', '真的假的', '我也是', '收到', '早', '晚安', '有人打游戏吗', '今天好热', '又下雨了', '中午吃啥',
  '刚下班，累死了', '周末一起吃火锅吗', '这个好离谱', '老板又开会了', '地铁挤爆了', '谁有耳机推荐', '奶茶喝多了睡不着', '明天记得带伞',
  '群里好安静', '这图绝了', '我先去洗澡', '有没有人看昨晚的比赛', '快递又丢了', '猫又把杯子打碎了', '今天摸鱼一整天', '好困啊',
]
const EN = [
  'lol', 'same', 'haha true', 'good morning', 'night all', 'brb', 'omg yes', 'no way', 'anyone up for lunch?', 'traffic is insane today',
  'who wants coffee', 'just got home', 'that meme is gold', 'meeting ran late again', 'did anyone watch the game?', 'it is raining again',
  'my cat woke me up at 5', 'need a new phone', 'weekend plans?', 'this weather though', 'ok see you tomorrow', 'that was fun',
]
const LONG = [
  '说真的，我觉得这次的更新改得挺好的，界面清爽多了，就是有些老功能找不到了，设置里翻了半天才找到夜间模式，希望下个版本能把快捷入口加回来。',
  'So I finally finished the long trip report: three days of rain, one missed train, a lovely tiny ramen place near the station, and a hotel '
    + 'whose wifi only worked in the hallway. Would still go again, honestly.',
  '昨天去看了那个展，人超级多，排了一个多小时，不过里面的灯光设计真的很厉害，拍了好多照片，回头发群里给你们看看。',
]
/** what people say about themselves, worth a note */
const FACTS = [
  '我下个月要搬到杭州了', '我换工作了，现在在一家游戏公司做策划', '我对花生过敏', '我生日是三月十二号', '我最近在学日语，已经坚持一个月了',
  '我家狗叫豆豆，是只柯基', 'I just started a new job as a nurse', "I'm allergic to shellfish", 'my birthday is on July 3rd',
  "we're moving to Osaka in the spring", 'I run a marathon every autumn', "I'm learning the guitar, week three", '我女儿开始学钢琴了',
  'I got a corgi named Biscuit', '我在考研，天天去图书馆', 'I work night shifts at the hospital now', '我是做前端开发的', 'I teach math at a middle school',
  '我周末一般去爬山', 'I just bought a used Civic',
]

/** 1,000 messages (or `n`) over the 16 hours before `end`, in time order. */
export function busyDay(end: number, n = 1000): DayMessage[] {
  const rnd = seededRandom(33)
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)]
  const uids = NAMES.map(() => String(100_000_000 + Math.floor(rnd() * 3_000_000_000)))
  const factAt = new Set(Array.from({ length: FACTS.length }, (_, i) => Math.floor((i + 0.5) * n / FACTS.length)))
  const span = 16 * 3600_000
  let facts = 0
  let id = 1_500_000_000 + Math.floor(rnd() * 100_000_000)
  const out: DayMessage[] = []
  for (let i = 0; i < n; i++) {
    const p = Math.floor(rnd() * NAMES.length)
    const zh = p < 15 ? rnd() < 0.85 : rnd() < 0.15
    let text = rnd() < 0.025 ? pick(LONG) : zh ? pick(ZH) : pick(EN)
    // two short lines in one message now and then, so hardly two lines are the same
    if (rnd() < 0.3) text += zh ? `，${pick(ZH)}` : `, ${pick(EN)}`
    const fact = factAt.has(i) ? FACTS[facts++] : undefined
    id += 1 + Math.floor(rnd() * 40)
    out.push({ id: String(id), at: end - span + Math.floor(i * span / n), uid: uids[p], name: NAMES[p], text: fact ?? text, fact })
  }
  return out
}

/**
 * The day as a runtime stores it, written before the runtime starts: the group's history, and who
 * wrote there (people-seen/, which the people part appends as messages arrive: a note is shown and
 * changed only where its person wrote).
 */
export async function writeDay(home: string, channel: string, day: readonly DayMessage[], bot = 'mock:514'): Promise<void> {
  const lines = day.map(m => JSON.stringify({ type: 'fact', at: m.at, fact: {
    id: m.id, at: m.at, bot, channel, guildId: channel.slice(channel.indexOf(':') + 1), direct: false,
    user: { id: m.uid, name: m.name }, content: m.text, mentionsBot: false, quotesBot: false,
  } }))
  await mkdir(join(home, 'conversations'), { recursive: true })
  await writeFile(join(home, 'conversations', `${safeName(channel)}.jsonl`), lines.join('\n') + '\n')
  const seen = [...new Set(day.map(m => JSON.stringify(personRel(bot.slice(0, bot.indexOf(':')), m.uid))))]
  await mkdir(join(home, WRITERS_DIR), { recursive: true })
  await writeFile(join(home, WRITERS_DIR, `${safeName(channel)}.jsonl`), seen.join('\n') + '\n')
}

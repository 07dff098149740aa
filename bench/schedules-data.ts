// Tasks of bench 27–29: a runtime's open tasks as people ask for them (most once, one in five
// repeating; notes of 10–120 characters, a third in Chinese), written by the store's own file
// code, and the real Schedules on the real FileTaskStore with a clock the bench drives.
import { join } from 'node:path'
import { DEFAULT_SCHEDULES } from '../src/schedules/config'
import { FileTaskStore, SCHEDULES_FILE } from '../src/schedules/file-store'
import { Schedules } from '../src/schedules/schedules'
import { newTaskId, taskValue, type Task } from '../src/schedules/task'
import type { PartTurnRequest } from '../src/part/plugin'
import type { Clock } from '../src/util/clock'
import { KeyedFile } from '../src/util/keyed-file'
import { seededRandom } from './seeded-random'

export const ZONE = 'Europe/Berlin'
export const quiet = { debug() {}, info() {}, warn() {}, error() {} }
const DAY = 86_400_000
const CRONS = ['0 9 * * *', '30 8 * * 1', '0 20 * * 5', '0 12 1 * *', '15 7 * * 1-5']
const LATIN = 'remind everyone about the meeting and bring the slides water the plants call mum '
const CJK = '记得交周报明天早上开会带上电脑给猫喂饭看一下群公告提醒大家报名'

function note(rnd: () => number): string {
  const n = 10 + Math.floor(rnd() * 111)
  const src = rnd() < 1 / 3 ? CJK : LATIN
  const from = Math.floor(rnd() * src.length)
  return (src + src + src).slice(from, from + n).trim() || 'ping'
}

/** `count` open tasks spread over `conversations` group chats, due within 30 days of `now`. */
export function makeTasks(count: number, conversations: number, now: number, seed = 27): Task[] {
  const rnd = seededRandom(seed)
  const ids = new Set<string>()
  const tasks: Task[] = []
  for (let i = 0; i < count; i++) {
    const c = i % conversations
    const person = Math.floor(rnd() * 5)
    const id = newTaskId(x => ids.has(x), rnd)
    ids.add(id)
    const repeating = rnd() < 0.2
    tasks.push({
      id, conversation: `onebot:group:${700_000 + c}`, channel: `group:${700_000 + c}`, note: note(rnd),
      ...repeating ? { cron: CRONS[Math.floor(rnd() * CRONS.length)] } : {},
      next: now + 60_000 + Math.floor(rnd() * 30 * DAY),
      who: { platform: 'onebot', id: String(10_000_000 + c * 10 + person), name: `member ${c}-${person}` },
      asked: now - Math.floor(rnd() * 7 * DAY), rev: 0,
    })
  }
  return tasks
}

/** Writes `tasks` as schedules.json of `home`, through the same file code the store uses. */
export async function writeTasks(home: string, tasks: readonly Task[]): Promise<string> {
  const path = join(home, SCHEDULES_FILE)
  const file = new KeyedFile({ path, field: 'tasks', what: 'schedules', value: taskValue, logger: quiet })
  for (const t of tasks) file.map.set(t.id, t)
  if (!await file.saved()) throw new Error(`${path} could not be written`)
  await file.stop()
  return path
}

export type Request = (channel: string, req: PartTurnRequest) => Promise<void>

/** A firing's turn starts at once (`wanted()`), so the firing is done; `fired` sees each that did. */
export const startingTurns = (fired: (channel: string, req: PartTurnRequest) => void): Request => async (channel, req) => {
  if (req.wanted?.() !== false) fired(channel, req)
}

/** The real Schedules on the real file store in `home`, as schedulesPart makes it (bounds raised for the bench's size). */
export function schedulesIn(home: string, clock: Clock, request: Request, zone = ZONE): Schedules {
  return new Schedules({
    config: { ...DEFAULT_SCHEDULES, perConversation: 1000, perUser: 1000 },
    zone, store: new FileTaskStore(home, quiet), clock, logger: quiet, random: seededRandom(1),
    proactive: () => true, muted: () => false, request,
  })
}

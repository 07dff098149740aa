// The scripted multi-day chat of bench 35 ("does upkeep help?"): 5 days, 3 groups, 20 people, 60
// facts — 40 people state about themselves, 20 claims one member makes about another — mixed with
// small talk, one fact in four said to the bot (a mention). Seeded: every run plays the same chat.
import { seededRandom } from './seeded-random'

export interface Person { uid: string; name: string; groups: string[] }
export interface ChatFact { text: string; speaker: Person; subject: Person; group: string; day: number; told: boolean }
export interface Said { day: number; who: Person; group: string; text: string; fact?: ChatFact }

const NAMES = ['Alice', 'Bob', 'Carol', 'Dave', 'Erin', 'Frank', 'Grace', 'Heidi', 'Ivan', 'Judy', 'Xiaowang', 'Lina', 'Zhangwei', 'Chenchen',
  'Liuyang', 'Zhaomin', 'Ajie', 'Xiaoyu', 'Laozhou', 'Tangtang']
const JOBS = ['nurse', 'pilot', 'carpenter', 'pharmacist', 'librarian', 'architect', 'barista', 'dentist', 'translator', 'firefighter']
const PETS = ['Biscuit', 'Maple', 'Pepper', 'Ziggy', 'Waffles', 'Nova', 'Mochi', 'Tofu', 'Peanut', 'Juniper']
const CITIES = ['Lisbon', 'Kyoto', 'Hangzhou', 'Reykjavik', 'Vancouver', 'Prague', 'Hanoi', 'Chengdu', 'Marrakesh', 'Tallinn']
const ALLERGIES = ['花生', '芒果', '海鲜', '猕猴桃', '芝麻', '牛奶', '鸡蛋', '菠萝', '虾', '荞麦']
const CITIES2 = ['Oslo', 'Dublin', 'Busan', 'Xiamen', 'Porto', 'Seville', 'Krakow', 'Dalian', 'Kunming', 'Bergen']
const COMPANIES = ['Globex', 'Initech', 'Northwind', 'Umbrella', 'Hooli', 'Vandelay', 'Soylent', 'Tyrell', 'Wonka', 'Cyberdyne']
const SMALL = ['lol', 'same here', 'haha true', 'good morning', 'anyone up for lunch?', 'traffic is insane', '哈哈哈', '今天好热', '中午吃啥',
  '刚下班', 'weekend plans?', 'that meme is gold', '好困啊', '又下雨了', 'brb', 'night all', '周末一起吃火锅吗', 'no way']

const SELF = [
  (i: number) => `I started working as a ${JOBS[i]} this month`,
  (i: number) => `my new puppy is called ${PETS[i]}`,
  (i: number) => `I'm moving to ${CITIES[i]} next month`,
  (i: number) => `我对${ALLERGIES[i]}过敏，千万别给我带`,
]
const CLAIMS = [
  (b: string, i: number) => `${b} moved to ${CITIES2[i]} last year, I heard`,
  (b: string, i: number) => `${b} just got a job at ${COMPANIES[i]}`,
]

export function factChat(): { people: Person[]; said: Said[]; facts: ChatFact[] } {
  const rnd = seededRandom(35)
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)]
  const members: Record<string, number[]> = { 'group:g1': range(0, 10), 'group:g2': range(7, 17), 'group:g3': [...range(13, 20), 0, 1] }
  const people: Person[] = NAMES.map((name, i) => ({
    uid: name.toLowerCase(), name, groups: Object.keys(members).filter(g => members[g].includes(i)),
  }))
  const facts: ChatFact[] = []
  SELF.forEach((make, k) => range(0, 10).forEach(i => {
    const speaker = people[(i * 3 + k * 7) % 20]
    facts.push({ text: make(i), speaker, subject: speaker, group: pick(speaker.groups), day: 0, told: false })
  }))
  CLAIMS.forEach((make, k) => range(0, 10).forEach(i => {
    const speaker = people[(i * 7 + k * 3 + 1) % 20]
    const group = pick(speaker.groups)
    const subject = people[pick(members[group].filter(n => people[n] !== speaker))]
    facts.push({ text: make(subject.name, i), speaker, subject, group, day: 0, told: false })
  }))
  // in a seeded order over the 5 days, one in four said to the bot
  const order = facts.map(f => ({ f, r: rnd() })).sort((a, b) => a.r - b.r).map(x => x.f)
  order.forEach((f, i) => { f.day = Math.floor(i * 5 / order.length); f.told = i % 4 === 0 })
  // day 0 opens with everyone greeting their groups: the notes of people who wrote there are theirs to change
  const said: Said[] = people.flatMap(p => p.groups.map(group => ({ day: 0, who: p, group, text: 'hi all' })))
  for (const f of order) {
    for (let k = 0; k < 2; k++) {
      const group = f.group
      said.push({ day: f.day, who: people[pick(members[group])], group, text: pick(SMALL) })
    }
    said.push({ day: f.day, who: f.speaker, group: f.group, text: f.told ? `<at id="514"/> ${f.text}` : f.text, fact: f })
  }
  return { people, said: said.sort((a, b) => a.day - b.day), facts }
}

function range(a: number, b: number): number[] {
  return Array.from({ length: b - a }, (_, i) => a + i)
}

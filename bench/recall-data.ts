// A synthetic long group chat for the recall benchmark (bench 15): months of chatter among several
// speakers, with facts stated once (the evidence messages) and questions about them asked later in
// other words. Two groups: one in English, one in Chinese. Seeded, so every run sees the same chat.
//
// What makes it hard, as in real chats: the facts' topics come back in the chatter (dogs, jobs,
// birthdays, concerts are everyone's), the questions use other words than the fact (a name for
// "named", "dog" for a breed, "unwind" asked where the answer only says "painting"), a fact is
// often the answer to someone else's question, and some questions share no word with their fact
// but the speaker's name (no keyword search finds those; they keep the figures honest).
import { seeded } from './data'

export interface ChatMessage {
  who: string
  text: string
  at: number
}

export interface Question {
  query: string
  /** indexes into the conversation's messages */
  evidence: number[]
  kind: string
}

export interface Conversation {
  name: string
  messages: ChatMessage[]
  questions: Question[]
}

/** the suite's seeded PRNG (mulberry32), so every run builds the same chat */
export const rng = seeded

type Pick = <T>(xs: readonly T[]) => T

/** Fills `{slot}`s from the lists; `{who}` etc. come from `fixed`. */
function fill(template: string, pick: Pick, slots: Record<string, readonly string[]>, fixed: Record<string, string> = {}): string {
  return template.replace(/\{(\w+)\}/g, (_, k) => fixed[k] ?? (slots[k] ? pick(slots[k]) : k))
}

interface FactLine {
  /** 'S': the speaker of the fact, 'X': someone else */
  by: 'S' | 'X'
  text: string
  evidence?: boolean
}

interface FactTemplate {
  kind: string
  lines: FactLine[]
  questions: string[]
  slots: Record<string, readonly string[]>
}

const EN_SLOTS: Record<string, readonly string[]> = {
  food: ['pizza', 'ramen', 'tacos', 'sushi', 'curry', 'burgers', 'dumplings', 'pho', 'lasagna', 'falafel', 'bbq', 'pad thai', 'salad', 'pasta', 'steak', 'noodles'],
  place: ['the park', 'the office', 'the gym', 'the mall', 'the beach', 'downtown', 'the library', 'the airport', 'the station', 'the cafe', "my parents' place", 'the lake'],
  thing: ['laptop', 'phone', 'bike', 'coffee machine', 'headphones', 'router', 'fridge', 'car', 'printer', 'keyboard', 'camera', 'tv', 'watch', 'backpack'],
  adj: ['great', 'terrible', 'weird', 'amazing', 'boring', 'fun', 'exhausting', 'chill', 'busy', 'crazy', 'nice', 'rough', 'lovely', 'strange'],
  activity: ['hiking', 'gaming', 'cooking', 'running', 'cleaning', 'shopping', 'working late', 'studying', 'swimming', 'fishing', 'cycling', 'baking', 'gardening', 'watching movies'],
  show: ['the new sci-fi series', 'that cooking show', 'the football match', 'a documentary about whales', 'the finale', 'an old western', 'the anime everyone talks about'],
  day: ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday', 'tomorrow', 'tonight', 'this weekend', 'next week'],
  animal: ['dog', 'cat', 'puppy', 'kitten', 'hamster', 'parrot', 'rabbit'],
  person: ['my boss', 'my sister', 'my brother', 'my neighbor', 'my mom', 'my dad', 'a coworker', 'my roommate', 'my cousin', 'an old friend'],
  weather: ['raining', 'snowing', 'freezing', 'so hot', 'windy', 'sunny', 'humid', 'foggy'],
  music: ['jazz', 'metal', 'k-pop', 'lo-fi beats', 'classical', 'hip hop', 'country', 'indie rock'],
  feeling: ['tired', 'happy', 'stressed', 'excited', 'bored', 'hungry', 'sleepy', 'nervous', 'relieved', 'annoyed'],
  time: ['this morning', 'last night', 'yesterday', 'earlier', 'an hour ago', 'at lunch', 'on the way home', 'last weekend'],
  topic: ['taxes', 'the new phone', 'the election', 'the game', 'that podcast', 'the office party', 'the heat wave', 'crypto', 'the new cafe'],
  lead: ['oh', 'btw', 'honestly', 'guys', 'ok so', 'fun fact', 'lol', 'update'],
}

const EN_FILLER = [
  'anyone up for {food} {day}?', 'just got back from {place}, {adj} day', "it's {weather} again ugh", 'lol', 'same', 'haha true', 'ok see you {day}',
  '{person} called me about the {thing} again', 'my {thing} broke, need a new one', 'thinking about {activity} {day}', 'did anyone watch {show}?',
  "can't believe how {adj} work was", 'who wants to grab {food} after work', 'I need coffee', 'good morning everyone', 'night all',
  'the meeting ran late, {adj}', 'traffic near {place} is {adj}', 'been {activity} all day', '{person} says hi', 'what time {day}?',
  'my {animal} keeps waking me up at 5am', 'saw the cutest {animal} at {place}', 'anyone know a good vet near {place}?',
  "{person}'s birthday party was {adj}", 'need gift ideas for a birthday', 'happy birthday to {person}!', 'birthdays are expensive lol',
  'my job is {adj} this week', 'work is killing me', 'looking for a new job maybe', 'got a raise finally', 'the new manager is {adj}',
  'went to a concert last year, {adj}', 'listening to {music} all day', 'anyone into {music}?', 'that band is overrated',
  'my car needs new tires', 'the bus was late again', 'flight got delayed at the airport', 'planning a trip somewhere warm',
  'the library is closed {day}', 'finished {show}, {adj} ending',
  'my knee hurts after {activity}', 'doctor appointment {day}', 'trying to eat healthier, lots of {food}', 'allergy season is here',
  'kids have school off {day}', "my nephew's piano recital was {adj}", 'thinking of learning guitar', 'the picnic got rained out last time',
  'we should do a picnic in the summer', 'anyone moving soon? need boxes?', 'rent went up again', 'favorite {food} place closed :(',
  'how do you all relax after a {adj} day?', 'I just sleep lol', 'this weekend was {adj}',
  'sent the photos from {place}', 'check out this {thing} deal', 'who took my charger', 'brb', 'omg yes', 'no way', 'agreed',
  '{lead} I was so {feeling} {time}', '{person} and I talked about {topic} {time}', 'still {feeling} about {topic}', 'anyone following {topic}?',
  'ran into {person} at {place} {time}', 'had {food} {time}, {adj}', 'my {animal} ate my {thing} cable {time}', 'not {feeling} at all, just {adj}',
  'I should stop talking about {topic}', 'the {thing} at {place} is {adj}', '{person} recommended {show}', 'can we talk about {topic} {day}',
  'no {food} for me {day}, trying to save money', 'we did {activity} with {person} {time}', 'that was {adj} lol', 'feeling {feeling} today',
  'what are you all doing {day}?', 'I might skip {activity} {day}', 'is {place} open {day}?', '{person} lost the {thing} again',
]

const EN_FACTS: FactTemplate[] = [
  {
    kind: 'form', lines: [{ by: 'X', text: 'do you still not have a pet?' }, { by: 'S', text: 'I just adopted a {breed} named {pet}!', evidence: true }],
    questions: ["What is the name of {S}'s dog?", 'What did {S} name the new puppy?'],
    slots: { breed: ['golden retriever', 'beagle', 'corgi', 'husky', 'dachshund', 'border collie'], pet: ['Maple', 'Biscuit', 'Luna', 'Pepper', 'Mochi', 'Ziggy', 'Nova', 'Waffles'] },
  },
  {
    kind: 'same', lines: [{ by: 'S', text: 'I got the job!! starting as a {job} at {company} next month', evidence: true }],
    questions: ['What job did {S} get?', 'Which company hired {S} as a {job}?'],
    slots: { job: ['nurse', 'data analyst', 'carpenter', 'teacher', 'pilot', 'graphic designer', 'pharmacist'], company: ['Northwind', 'Globex', 'Initech', 'Umbrella Health', 'Stark Air', 'Acme'] },
  },
  {
    kind: 'same', lines: [{ by: 'S', text: "we're flying to {city} in {month} for our anniversary", evidence: true }],
    questions: ['Where is {S} traveling for the anniversary?', 'Which city will {S} visit for their anniversary?'],
    slots: { city: ['Kyoto', 'Lisbon', 'Reykjavik', 'Marrakesh', 'Vancouver', 'Prague', 'Hanoi'], month: ['October', 'June', 'August', 'November', 'April'] },
  },
  {
    kind: 'form', lines: [{ by: 'S', text: "my birthday's on {month} {day}, you're all invited", evidence: true }],
    questions: ["When is {S}'s birthday?", 'What day was {S} born?'],
    slots: { month: ['March', 'July', 'September', 'December', 'February'], day: ['3rd', '12th', '21st', '28th', '9th'] },
  },
  {
    kind: 'same', lines: [{ by: 'S', text: "I can't have {food}, I'm allergic", evidence: true }],
    questions: ['What food is {S} allergic to?', 'What should {S} avoid eating?'],
    slots: { food: ['peanuts', 'shellfish', 'strawberries', 'eggs', 'sesame', 'kiwi'] },
  },
  {
    kind: 'context', lines: [{ by: 'X', text: 'what do you all do to unwind after work?' }, { by: 'S', text: 'honestly {hobby}, it calms me down', evidence: true }],
    questions: ['How does {S} unwind after work?', 'What does {S} do to unwind?'],
    slots: { hobby: ['painting landscapes', 'pottery', 'long walks with headphones', 'knitting', 'bouldering', 'playing piano'] },
  },
  {
    kind: 'form', lines: [{ by: 'S', text: 'went to the {band} concert on Saturday, it was unreal', evidence: true }],
    questions: ['Which band did {S} go see?', 'What concert did {S} go to?'],
    slots: { band: ['Coldplay', 'Radiohead', 'Arctic Monkeys', 'Paramore', 'Tame Impala', 'The National'] },
  },
  {
    kind: 'same', lines: [{ by: 'S', text: "we're moving to {city} in the spring, found a place near the river", evidence: true }],
    questions: ['Where is {S} moving to?', 'Which city is {S} moving to in the spring?'],
    slots: { city: ['Denver', 'Portland', 'Austin', 'Boston', 'Seattle', 'Chicago'] },
  },
  {
    kind: 'form', lines: [{ by: 'S', text: 'my daughters both started {instrument} lessons', evidence: true }],
    questions: ["What instrument does {S}'s daughter play?", "What lessons is {S}'s daughter taking?"],
    slots: { instrument: ['violin', 'cello', 'drum', 'flute', 'trumpet', 'harp'] },
  },
  {
    kind: 'form', lines: [{ by: 'S', text: 'sold my old car and bought a {car} last weekend', evidence: true }],
    questions: ['What car did {S} buy?', 'Which car does {S} drive now?'],
    slots: { car: ['Mazda 3', 'Subaru Outback', 'Tesla Model 3', 'Honda Civic', 'Volvo XC40', 'Ford Bronco'] },
  },
  {
    kind: 'context', lines: [{ by: 'X', text: 'read anything good lately?' }, { by: 'S', text: "halfway through {book}, can't put it down", evidence: true }],
    questions: ['What book is {S} reading?', 'What is {S} reading these days?'],
    slots: { book: ['Project Hail Mary', 'Dune', 'The Overstory', 'Circe', 'Piranesi', 'Klara and the Sun'] },
  },
  {
    kind: 'paraphrase', lines: [{ by: 'S', text: 'signed up for the {city} marathon in {month}', evidence: true }],
    questions: ['Which race did {S} register for?', 'What race is {S} training for?'],
    slots: { city: ['Berlin', 'Chicago', 'Tokyo', 'London', 'Boston'], month: ['September', 'October', 'April'] },
  },
  {
    kind: 'same', lines: [{ by: 'S', text: 'the doctor says my knee needs surgery, scheduled for {month} {day}', evidence: true }],
    questions: ["When is {S}'s knee surgery?", 'What surgery does {S} need?'],
    slots: { month: ['May', 'June', 'July'], day: ['2nd', '14th', '20th'] },
  },
  {
    kind: 'context', lines: [{ by: 'X', text: "what's everyone's favorite food? settling a debate" }, { by: 'S', text: '{food}, no contest', evidence: true }],
    questions: ["What is {S}'s favorite food?", 'Which food does {S} like best?'],
    slots: { food: ['dumplings', 'tacos al pastor', 'ramen', 'lasagna', 'pad thai', 'biryani'] },
  },
  {
    kind: 'same', lines: [{ by: 'S', text: 'started learning a new language, {language}, 30 day streak', evidence: true }],
    questions: ['What language is {S} studying?', 'Which language is {S} learning?'],
    slots: { language: ['Japanese', 'Portuguese', 'Korean', 'German', 'Italian', 'Swahili'] },
  },
  {
    kind: 'form', lines: [{ by: 'S', text: "I'll bring the {item} to the picnic on Sunday", evidence: true }],
    questions: ['What is {S} bringing to the picnic?', 'What did {S} promise to bring?'],
    slots: { item: ['lemonade', 'frisbee', 'potato salad', 'blanket', 'speaker', 'watermelon'] },
  },
]

const ZH_SLOTS: Record<string, readonly string[]> = {
  food: ['火锅', '烧烤', '麻辣烫', '饺子', '寿司', '炸鸡', '奶茶', '拉面', '小龙虾', '披萨'],
  place: ['公司', '健身房', '商场', '公园', '地铁站', '机场', '图书馆', '咖啡店', '老家'],
  thing: ['手机', '电脑', '耳机', '自行车', '冰箱', '相机', '键盘', '空调', '路由器'],
  adj: ['累死了', '太好了', '有点无聊', '好开心', '离谱', '还行', '绝了', '烦死了'],
  activity: ['加班', '打游戏', '跑步', '做饭', '逛街', '追剧', '学习', '睡觉', '钓鱼'],
  day: ['明天', '周末', '今晚', '下周', '周五', '后天'],
  person: ['我妈', '老板', '同事', '室友', '我姐', '表弟', '邻居'],
  weather: ['下雨', '好热', '降温', '刮大风', '下雪'],
  time: ['昨天', '今天早上', '刚才', '上周末', '中午', '晚上'],
  topic: ['股票', '新手机', '世界杯', '房价', '减肥', '电动车', '考公', '养生'],
  feeling: ['好累', '好困', '开心', '焦虑', '无聊', '饿了'],
}

const ZH_FILLER = [
  '{day}一起吃{food}吗', '刚从{place}回来，{adj}', '今天又{weather}了', '哈哈哈', '+1', '好的', '收到', '早上好', '晚安',
  '{person}又来问{thing}的事', '我的{thing}坏了，得换个新的', '{day}打算{activity}', '开会开到现在，{adj}', '{place}附近堵死了',
  '一整天都在{activity}', '有人知道哪里修{thing}吗', '我家猫今天把杯子打碎了', '楼下有只小狗好可爱', '周末一般就在家躺着',
  '最近工作好忙', '想换个工作', '老板今天心情不错', '下个月要出差', '国庆哪里人都多', '生日快乐！', '过敏季节到了，一直打喷嚏',
  '想学个乐器', '考试好难', '房租又涨了', '搬家真的累', '新车好贵啊', '周末去哪玩', '这个{food}绝了', '谁有{thing}推荐',
  '{person}说下周来看我', '今天{adj}', '明天记得带伞', '群里好安静', '在吗', '我也是', '真的假的', '笑死',
  '{time}和{person}去吃了{food}', '{time}在{place}碰到{person}了', '{topic}你们怎么看', '最近在研究{topic}', '{time}{activity}到半夜',
  '感觉{feeling}', '{person}推荐了一个{thing}', '{place}今天人好多', '{day}不想{activity}了', '又在聊{topic}',
]

const ZH_FACTS: FactTemplate[] = [
  {
    kind: 'same', lines: [{ by: 'S', text: '我上个月换工作了，现在在{company}做{job}', evidence: true }],
    questions: ['{S}换工作去哪了？', '{S}现在做什么工作？'],
    slots: { company: ['腾讯', '字节', '华为', '小米', '美团', '京东'], job: ['产品经理', '设计师', '测试', '运营', '前端开发'] },
  },
  {
    kind: 'same', lines: [{ by: 'S', text: '我对{food}过敏，吃了会起疹子', evidence: true }],
    questions: ['{S}对什么过敏？', '{S}不能吃什么？'],
    slots: { food: ['花生', '芒果', '海鲜', '鸡蛋', '牛奶'] },
  },
  {
    kind: 'form', lines: [{ by: 'X', text: '你家猫叫什么名字？' }, { by: 'S', text: '叫{pet}，是一只橘猫', evidence: true }],
    questions: ['{S}的猫叫什么？', '{S}养的猫叫啥名字'],
    slots: { pet: ['咪咪', '团子', '可乐', '馒头', '花花', '豆豆'] },
  },
  {
    kind: 'same', lines: [{ by: 'S', text: '国庆打算去{city}玩几天', evidence: true }],
    questions: ['{S}国庆去哪里玩？', '{S}国庆假期的计划是什么'],
    slots: { city: ['成都', '西安', '厦门', '大理', '青岛', '长沙'] },
  },
  {
    kind: 'same', lines: [{ by: 'S', text: '我生日是{month}月{day}号，到时候请大家吃饭', evidence: true }],
    questions: ['{S}的生日是哪天？', '{S}什么时候过生日'],
    slots: { month: ['3', '5', '8', '11'], day: ['2', '15', '23', '28'] },
  },
  {
    kind: 'form', lines: [{ by: 'S', text: '下个月要考{exam}，最近天天复习', evidence: true }],
    questions: ['{S}在准备什么考试？', '{S}要考什么'],
    slots: { exam: ['驾照', '雅思', '教师资格证', '注册会计师', '考研'] },
  },
  {
    kind: 'same', lines: [{ by: 'S', text: '我们打算搬到{city}去，房子已经找好了', evidence: true }],
    questions: ['{S}要搬去哪个城市？', '{S}搬家搬到哪'],
    slots: { city: ['杭州', '深圳', '苏州', '南京', '武汉'] },
  },
  {
    kind: 'context', lines: [{ by: 'X', text: '你们周末一般干嘛？' }, { by: 'S', text: '{hobby}，雷打不动', evidence: true }],
    questions: ['{S}周末喜欢做什么？', '{S}周末一般干嘛'],
    slots: { hobby: ['爬山', '打羽毛球', '去图书馆看书', '在家撸猫', '去钓鱼'] },
  },
  {
    kind: 'form', lines: [{ by: 'S', text: '刚提了辆新车，{car}', evidence: true }],
    questions: ['{S}买了什么车？', '{S}的新车是什么'],
    slots: { car: ['比亚迪汉', '特斯拉', '理想L7', '卡罗拉', '小米SU7'] },
  },
  {
    kind: 'same', lines: [{ by: 'S', text: '女儿最近开始学{instrument}了', evidence: true }],
    questions: ['{S}的女儿在学什么乐器？', '{S}女儿学什么'],
    slots: { instrument: ['钢琴', '小提琴', '古筝', '架子鼓'] },
  },
]

interface Spec {
  name: string
  speakers: string[]
  filler: string[]
  /** how clauses are joined */
  joiner: string[]
  slots: Record<string, readonly string[]>
  facts: FactTemplate[]
  /** facts per template */
  perTemplate: number
  messages: number
  seed: number
}

function generate(s: Spec): Conversation {
  const r = rng(s.seed)
  const pick: Pick = xs => xs[Math.floor(r() * xs.length)]
  // chatter: one to three clauses, so hardly two messages are the same
  const chatter = () => {
    const n = r() < 0.45 ? 1 : r() < 0.7 ? 2 : 3
    const parts = Array.from({ length: n }, () => fill(pick(s.filler), pick, s.slots))
    return parts.join(s.joiner[Math.floor(r() * s.joiner.length)])
  }
  const aside = () => fill(pick(s.filler), pick, s.slots)
  // the facts, each by a speaker who states it once, placed at random times
  const planned: { at: number; lines: { who: string; text: string; evidence: boolean }[]; question: string; kind: string }[] = []
  for (const t of s.facts) {
    const speakers = [...s.speakers].sort(() => r() - 0.5).slice(0, s.perTemplate)
    for (const S of speakers) {
      const fixed: Record<string, string> = { S }
      for (const [k, v] of Object.entries(t.slots)) fixed[k] = pick(v)
      const X = pick(s.speakers.filter(x => x !== S))
      planned.push({
        at: r(), kind: t.kind,
        lines: t.lines.map(l => {
          let text = fill(l.text, pick, t.slots, fixed)
          // a fact often comes with something else said in the same breath
          if (l.evidence && r() < 0.5) text = r() < 0.5 ? `${aside()}${s.joiner[0]}${text}` : `${text}${s.joiner[0]}${aside()}`
          return { who: l.by === 'S' ? S : X, text, evidence: !!l.evidence }
        }),
        question: fill(pick(t.questions), pick, t.slots, fixed),
      })
    }
  }
  planned.sort((a, b) => a.at - b.at)
  const messages: ChatMessage[] = []
  const questions: Question[] = []
  const start = Date.UTC(2024, 0, 8, 9)
  const span = 180 * 86400_000
  let next = 0
  for (let i = 0; messages.length < s.messages; i++) {
    const progress = messages.length / s.messages
    const at = start + progress * span
    while (next < planned.length && planned[next].at <= progress) {
      const f = planned[next++]
      const evidence: number[] = []
      f.lines.forEach((l, k) => {
        // sometimes someone else cuts in between the question and the answer
        if (k > 0 && r() < 0.3) messages.push({ who: pick(s.speakers), text: chatter(), at: at + k * 20_000 - 10_000 })
        if (l.evidence) evidence.push(messages.length)
        messages.push({ who: l.who, text: l.text, at: at + k * 20_000 })
      })
      questions.push({ query: f.question, evidence, kind: f.kind })
    }
    messages.push({ who: pick(s.speakers), text: chatter(), at: at + 60_000 })
  }
  return { name: s.name, messages, questions }
}

export function englishGroup(messages: number): Conversation {
  return generate({
    name: 'English group', speakers: ['Alice', 'Bob', 'Carol', 'Dave', 'Erin', 'Frank', 'Grace'], filler: EN_FILLER, joiner: [', ', '. ', ' and ', '! '], slots: EN_SLOTS,
    facts: EN_FACTS, perTemplate: 5, messages, seed: 1,
  })
}

export function chineseGroup(messages: number): Conversation {
  return generate({
    name: 'Chinese group', speakers: ['小王', '李娜', '张伟', '陈晨', '刘洋', '赵敏'], filler: ZH_FILLER, joiner: ['，', '。', '！'], slots: ZH_SLOTS,
    facts: ZH_FACTS, perTemplate: 4, messages, seed: 2,
  })
}

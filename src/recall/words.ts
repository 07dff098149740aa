// Word lists of the analyzer (docs/recall.md): English stop words (dropped from documents and
// queries: they carry no meaning a search can use and would make the longest posting lists), a
// few Chinese function characters, and English irregular forms mapped to the form the stemmer
// sees for the regular ones ("went" is found by "go", "children" by "child").

export const STOP = new Set(`a about above after again against all am an and any are as at be because been before being
below between both but by can could did do does doing down during each few for from further had has have having he her
here hers herself him himself his how i if in into is it its itself just me more most my myself no nor not now of off
on once only or other our ours ourselves out over own same she should so some such than that the their theirs them
themselves then there these they this those through to too under until up very was we were what when where which while
who whom why will with would you your yours yourself yourselves s t don didn doesn isn wasn aren weren couldn shouldn wouldn hasn haven hadn mustn ll ve re d m
o y also yes yeah ok okay oh hey hi lol really just`.split(/\s+/))

/** Han characters and Japanese particles too frequent to be worth a posting of their own (they still count inside words). */
export const CJK_STOP = new Set([...'的了是我你他她它在和就都也吗吧呢啊呀哦嗯么这那个有不はをでにがのともへやかねよなただす'])

const IRREGULAR_GROUPS = `
arise arose arisen|awake awoke awoken|be was were been|beat beaten|become became|begin began begun
bend bent|bet|bite bit bitten|bleed bled|blow blew blown|break broke broken|breed bred|bring brought|build built
burn burnt|buy bought|catch caught|choose chose chosen|come came|cost|creep crept|cut|deal dealt|dig dug|do did done
draw drew drawn|dream dreamt|drink drank drunk|drive drove driven|eat ate eaten|fall fell fallen|feed fed|feel felt
fight fought|find found|flee fled|fly flew flown|forbid forbade forbidden|forget forgot forgotten|forgive forgave forgiven
freeze froze frozen|get got gotten|give gave given|go went gone|grow grew grown|hang hung|have had|hear heard
hide hid hidden|hit|hold held|hurt|keep kept|kneel knelt|know knew known|lay laid|lead led|lean leant|leap leapt
learn learnt|leave left|lend lent|let|lie lain|light lit|lose lost|make made|mean meant|meet met|pay paid|prove proven
put|quit|read|ride rode ridden|ring rang rung|rise risen|run ran|say said|see saw seen|seek sought|sell sold
send sent|set|sew sewn|shake shook shaken|shine shone|shoot shot|show shown|shrink shrank shrunk|shut|sing sang sung
sink sank sunk|sit sat|sleep slept|slide slid|speak spoke spoken|speed sped|spend spent|spin spun|spit spat|split|spread
spring sprang sprung|stand stood|steal stole stolen|stick stuck|sting stung|stink stank stunk|strike struck|swear swore sworn
sweep swept|swim swam swum|swing swung|take took taken|teach taught|tear tore torn|tell told|think thought|throw threw thrown
understand understood|wake woke woken|wear wore worn|weave wove woven|weep wept|win won|write wrote written
child children|man men|woman women|person people|mouse mice|foot feet|tooth teeth|goose geese|wife wives
knife knives|leaf leaves|wolf wolves|half halves|shelf shelves`

/** Chinese and Japanese function words: question words, pronouns, particles (their characters are not indexed either). */
export const CJK_STOP_WORDS = new Set(`什么 什么样 什么时候 多久 哪 哪里 哪儿 哪个 哪些 哪天 怎么 怎样 怎么样 为什么 谁 几 多少 一下 一个 这个 那个 这些 那些
就是 还是 已经 因为 所以 但是 可以 没有 我们 你们 他们 她们 自己 大家 这样 那样 的话 时候 一些 有点 然后 现在 です ます した
でした ません ください これ それ あれ この その あの から まで より`.split(/\s+/))

/** Irregular form → base form. */
export const IRREGULAR = new Map<string, string>()
for (const group of IRREGULAR_GROUPS.split(/[|\n]/)) {
  const [base, ...forms] = group.trim().split(/\s+/)
  if (!base) continue
  for (const f of forms) if (!IRREGULAR.has(f)) IRREGULAR.set(f, base)
}

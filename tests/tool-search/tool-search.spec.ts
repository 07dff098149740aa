// Many tools: search instead of listing (SPEC §18). The 200 tools of support/many-tools.ts as 14
// MCP servers over HTTP, the plugin and the fake OpenAI server as the model.
import { expect } from 'chai'
import { jsonSchema } from 'ai'
import { z } from 'zod'
import { Harness, call } from '../support/harness'
import { messagesOf, toolNamesOf, toolResultsOf, type RecordedRequest } from '../support/fake-openai'
import { startManyMcp, type ManyMcp } from '../support/mcp-many-server'
import { DOMAINS, toolDefs } from '../support/many-tools'
import { planSearch, stepTools, terms, ToolIndex, withHidden } from '../../src/tool-search'
import { transcript } from '../../src/console-data/transcript'
import { entryProblem } from '../../src/history/entry-shape'
import type { Entry } from '../../src/history/entries'
import type { Tool } from '../../src/contract/tool'

const ALL = DOMAINS.map(d => d.id)
const systemOf = (req: RecordedRequest): string => messagesOf(req)[0].content
const declared = (req: RecordedRequest, name: string) => req.body.tools.find((t: any) => t.function.name === name)

describe('many tools: tool_search (SPEC §18)', function () {
  this.timeout(30000)
  let h: Harness | undefined
  let many: ManyMcp | undefined
  afterEach(async () => {
    await h?.stop()
    await many?.close()
    h = many = undefined
  })

  async function start(o: { servers?: string[]; profile?: any; model?: any } = {}) {
    many = await startManyMcp(DOMAINS.filter(d => (o.servers ?? ALL).includes(d.id)))
    h = await Harness.start({ mcp: { servers: many.servers }, profile: { mcp: o.servers ?? ALL, ...o.profile }, ...(o.model ? { model: o.model } : {}) })
    await h.until(() => h.app.kotodama.mcpStatus().every((s: any) => s.state === 'ready'), 'the MCP servers', 15000)
  }

  /** One turn of scripted replies; resolves with its requests. */
  async function turn(...replies: any[]): Promise<RecordedRequest[]> {
    const before = h.server.requests.length
    h.server.script(...replies)
    await h.client('bob').receive(`go #${before}`)
    await h.server.waitForRequests(before + replies.length)
    await h.settled()
    return h.server.requests.slice(before)
  }

  it('declares the built-ins and tool_search only; a search finds a paraphrased task with its schema; the found tool is appended and reaches its server', async () => {
    await start()
    const [first, second, third] = await turn(
      { toolCalls: [call('tool_search', { query: 'push my 3pm meeting with the design team to Thursday' })] },
      { toolCalls: [call('calendar_move_event', { id: 'ev1', start: '2030-01-03T15:00:00Z', end: '2030-01-03T16:00:00Z' })] },
      { toolCalls: [call('finish', {})] },
    )
    const builtins = toolNamesOf(first)
    expect(builtins).to.include.members(['send_message', 'read', 'finish', 'wait', 'tool_search'])
    expect(builtins.filter(n => ALL.some(id => n.startsWith(`${id}_`)))).to.deep.equal([])
    // one line per server: its instructions, or what its tools are about
    const system = systemOf(first)
    expect(system).to.include('tool_search({query})')
    expect(system).to.include('- calendar: 16 tools. Google-style calendars of the owner: events, invitations, reminders and free time.')
    expect(system).to.include('- express: 10 tools. 快递服务：查询物流、在线寄件、预约上门取件、运费估算。')
    expect(system).to.match(/\n- weather: 14 tools about temperature, wind, forecast, [^\n]+\n/)
    for (const id of ALL) expect(system).to.include(`\n- ${id}: `)
    // the model is told of every tool the 14 servers offer: 200 in all
    const counts = [...system.matchAll(/\n- [a-z]+: (\d+) tools/g)].map(m => Number(m[1]))
    expect(counts).to.have.length(ALL.length)
    expect(counts.reduce((a, b) => a + b, 0)).to.equal(200)

    const found = JSON.parse(toolResultsOf(second).at(-1).content)
    expect(found.tools).to.have.length(5)
    const move = found.tools.find((t: any) => t.name === 'calendar_move_event')
    expect(move, JSON.stringify(found.tools.map((t: any) => t.name))).to.not.equal(undefined)
    expect(move.description).to.match(/^Reschedule an event/)
    expect(move.inputSchema.properties.start).to.deep.include({ type: 'string' })
    expect(move.inputSchema.required).to.deep.equal(['id', 'start', 'end'])
    // appended after what the first request declared, which stays byte for byte the same (SPEC §16)
    expect(second.body.tools.slice(0, first.body.tools.length)).to.deep.equal(first.body.tools)
    expect(toolNamesOf(second).slice(builtins.length)).to.deep.equal(found.tools.map((t: any) => t.name))
    expect(declared(second, 'calendar_move_event').function.parameters.properties.notify).to.deep.include({ type: 'boolean' })
    expect(systemOf(second)).to.equal(system)

    expect(toolResultsOf(third).at(-1).content).to.equal('calendar.move_event called with {"id":"ev1","start":"2030-01-03T15:00:00Z","end":"2030-01-03T16:00:00Z"}')
    expect(many.calls).to.deep.equal([{ server: 'calendar', tool: 'move_event', args: { id: 'ev1', start: '2030-01-03T15:00:00Z', end: '2030-01-03T16:00:00Z' } }])
    expect(third.body.tools.slice(0, second.body.tools.length)).to.deep.equal(second.body.tools)

    // a new turn starts from the built-ins again
    const [next] = await turn({ toolCalls: [call('finish', {})] })
    expect(toolNamesOf(next)).to.deep.equal(builtins)
    // the console shows which tools the turn loaded
    const conv = await (await h.app.kotodama.list())[0].conversation('private:bob')
    const items = transcript({ key: conv.key, entries: conv.entries, busy: false }).items
    const turnItem = items.find((i: any) => i.kind === 'turn' && i.loaded) as any
    expect(turnItem.loaded).to.deep.equal(found.tools.map((t: any) => t.name))
  })

  it('a tool called by name before any search is loaded and run; bad input is explained; an unknown name stays unavailable', async () => {
    await start()
    const [first, second, third] = await turn(
      { toolCalls: [call('weather_current', { location: 'Madrid' })] },
      { toolCalls: [call('rail_search_trains', { from_station: 7 }), call('weather_nowhere', {})] },
      { toolCalls: [call('finish', {})] },
    )
    expect(toolNamesOf(first)).to.not.include('weather_current')
    expect(toolResultsOf(second).at(-1).content).to.equal('weather.current called with {"location":"Madrid"}')
    expect(toolNamesOf(second).at(-1)).to.equal('weather_current')
    expect(second.body.tools.slice(0, first.body.tools.length)).to.deep.equal(first.body.tools)
    const [bad, unknown] = toolResultsOf(third).slice(-2)
    expect(bad.content).to.match(/^Invalid input for tool rail_search_trains: /)
    expect(unknown.content).to.match(/^Model tried to call unavailable tool 'weather_nowhere'/)
    // an invalid call loads nothing
    expect(toolNamesOf(third)).to.deep.equal(toolNamesOf(second))
    expect(many.calls.map(c => `${c.server}.${c.tool}`)).to.deep.equal(['weather.current'])
  })

  it('below the threshold every tool is declared and nothing is searched; tools.searchAbove lowers it', async () => {
    await start({ servers: ['contacts', 'notes'] })
    const [first] = await turn({ toolCalls: [call('contacts_search_contacts', { query: 'Dave' })] }, { toolCalls: [call('finish', {})] })
    expect(toolNamesOf(first)).to.include.members(['contacts_search_contacts', 'notes_share_note'])
    expect(toolNamesOf(first)).to.not.include('tool_search')
    expect(systemOf(first)).to.not.include('tool_search')
    await h.stop()
    await many.close()
    await start({ servers: ['contacts'], profile: { tools: { searchAbove: 5 } } })
    const [small] = await turn({ toolCalls: [call('finish', {})] })
    expect(toolNamesOf(small)).to.include('tool_search')
    expect(toolNamesOf(small)).to.not.include('contacts_search_contacts')
    expect(systemOf(small)).to.match(/\n- contacts: 10 tools about /)
  })

  it('codemode: programs find a tool and call it; the codemode tool declares none of the searched tools; codemode.direct keeps its entry', async () => {
    await start({ profile: { codemode: { enabled: true, direct: ['maps_geocode'] } } })
    const code = `const found = await tools.tool_search({ query: 'current weather conditions', limit: 3 })
const name = found.tools[0].name
const r = await tools[name]({ location: 'Oslo' })
const direct = await tools.rail_ticket_price({ train_no: 'G1', from_station: 'A', to_station: 'B' })
return { name, returns: !!found.tools[0].returns, text: r.content[0].text, direct: direct.content[0].text }`
    const [first, second] = await turn({ toolCalls: [call('codemode', { code })] }, { toolCalls: [call('finish', {})] })
    expect(toolNamesOf(first)).to.include.members(['codemode', 'finish', 'maps_geocode', 'send_message', 'tool_search', 'wait'])
    expect(toolNamesOf(first).filter(n => ALL.some(id => n.startsWith(`${id}_`)))).to.deep.equal(['maps_geocode'])
    const desc = declared(first, 'codemode').function.description
    expect(desc).to.include('tool_search(input:')
    expect(desc).to.not.include('weather_current')
    expect(desc).to.not.include('rail_ticket_price')
    expect(JSON.parse(toolResultsOf(second).at(-1).content)).to.deep.equal({
      name: 'weather_current', returns: true, text: 'weather.current called with {"location":"Oslo"}',
      direct: 'rail.ticket_price called with {"train_no":"G1","from_station":"A","to_station":"B"}',
    })
    expect(systemOf(first)).to.include('tools.<name>(input)')
  })

  it('text dialects: a found tool is described in the text from the next step on; a call by name works too', async () => {
    await start({ model: { toolCalls: 'hermes' } })
    const write = (name: string, args: unknown) => ({ content: `<tool_call>{"name": ${JSON.stringify(name)}, "arguments": ${JSON.stringify(args)}}</tool_call>` })
    const [first, second, third] = await turn(
      write('tool_search', { query: '查询快递物流', limit: 2 }),
      write('weather_uv_index', { location: 'Rome' }),
      write('finish', {}),
    )
    expect(first.body.tools).to.equal(undefined)
    expect(systemOf(first)).to.include('tool_search').and.not.include('express_track')
    expect(systemOf(second)).to.include('"express_track"')
    expect(systemOf(second).startsWith(systemOf(first).split('express_track')[0].slice(0, 200))).to.equal(true)
    expect(messagesOf(third).at(-1).content).to.include('weather.uv_index called with {\\"location\\":\\"Rome\\"}')
    expect(systemOf(third)).to.include('"weather_uv_index"')
  })
})

describe('tool_search parts (SPEC §18)', () => {
  const mcpLike = (description: string, schema: object): Tool => ({ description, inputSchema: jsonSchema(schema as any) as any, execute: async () => null })

  it('words: identifiers split on _, - and case, English stemmed, Chinese segmented', () => {
    expect(terms('getWeatherForecast')).to.deep.equal(['weather', 'forecast'])
    expect(terms('calendar_create-events')).to.deep.equal(['calendar', 'creat', 'event'])
    expect(terms('Scheduling meetings')).to.deep.equal(terms('schedules meeting'))
    expect(terms('查询天气预报')).to.include.members(['查询', '天气', '预报'])
    expect(terms('天气预报')).to.include('天气')
  })

  it('Korean is written with spaces: its words are whole words, never cut into pairs of syllables', () => {
    expect(terms('내일 일기예보를 알려줘')).to.deep.equal(['내일', '일기예보를', '알려줘'])
    // 일기예보 (weather forecast) shares the pair 일기 with 일기장 (diary): the diary is not a forecast
    const tools = new Map<string, Tool>([
      ['weather_forecast', mcpLike('내일 일기예보 알려줌', { type: 'object', properties: {} })],
      ['diary_write', mcpLike('일기장에 일기를 쓴다', { type: 'object', properties: {} })],
    ])
    expect(new ToolIndex(tools).find('일기예보', 5).map(h => h.name)).to.deep.equal(['weather_forecast'])
  })

  it('ranks by names, descriptions and parameters, also in Chinese', () => {
    const tools = new Map<string, Tool>()
    for (const d of DOMAINS) for (const t of toolDefs(d)) tools.set(`${d.id}_${t.name}`, mcpLike(t.description, t.inputSchema))
    const index = new ToolIndex(tools)
    const top = (q: string) => index.find(q, 5).map(h => h.name)
    expect(top('remove the file /tmp/old.txt')[0]).to.equal('files_delete_path')
    expect(top('我要退掉明天的火车票')[0]).to.equal('rail_refund_ticket')
    expect(top('duration_minutes')).to.include('calendar_find_free_slots')
    expect(index.find('the of and', 5)).to.deep.equal([])
  })

  it('searched above searchAbove tools or 20,000 units of declarations; codemode.direct stays declared', () => {
    const few = new Map<string, Tool>([['a_b', mcpLike('x'.repeat(25_000), { type: 'object' })]])
    const profile = { codemode: { enabled: false, direct: [] as string[] } }
    expect(planSearch(profile, few).hidden.size).to.equal(1)
    const small = new Map<string, Tool>([['a_b', mcpLike('short', { type: 'object' })]])
    expect(planSearch(profile, small).searchTool).to.equal(undefined)
    expect(planSearch({ ...profile, tools: { searchAbove: 0 } }, small).hidden.size).to.equal(1)
    const code = planSearch({ codemode: { enabled: true, direct: ['a_b'] }, tools: { searchAbove: 0 } }, new Map([...small, ['c_d', small.get('a_b')]]))
    expect([...code.hidden]).to.deep.equal(['c_d'])
  })

  it('a step declares the catalog without its hidden tools, then the loaded ones in load order', () => {
    const t = (n: string): Tool => ({ description: n, inputSchema: z.object({}), execute: async () => n })
    const all = withHidden(new Map(['a', 'x', 'b', 'y', 'z'].map(n => [n, t(n)])), new Set(['x', 'y', 'z']))
    const state = { number: 1, wokeAt: 0, loaded: ['z', 'x', 'gone'] }
    expect([...stepTools(all, state).keys()]).to.deep.equal(['a', 'b', 'z', 'x'])
    const plain = new Map([['a', t('a')]])
    expect(stepTools(plain, state)).to.equal(plain)
  })

  it('the console shows the tools each step and turn loaded; the history keeps them', () => {
    const entries: Entry[] = [
      { type: 'turn', at: 1, turn: 1, reason: 'mention' },
      { type: 'step', at: 2, turn: 1, messages: [{ role: 'assistant', content: [] }], loaded: ['a_x', 'a_y'] },
      { type: 'step', at: 3, turn: 1, messages: [{ role: 'assistant', content: [] }], loaded: ['b_z'] },
    ]
    const items = transcript({ key: 'k', entries, busy: false }).items as any[]
    expect(items[0].loaded).to.deep.equal(['a_x', 'a_y', 'b_z'])
    expect(items[1].loaded).to.deep.equal(['a_x', 'a_y'])
    // a history line whose list is broken is skipped, not shown
    expect(entryProblem(entries[1])).to.equal(undefined)
    expect(entryProblem({ ...entries[1], loaded: 'a_x' })).to.equal('a step with malformed loaded tools')
  })
})

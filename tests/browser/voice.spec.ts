// Voice on the console page in a real browser (SPEC §20 "The console page plays voice messages,
// both ways, and shows their transcripts"): the demo and a runtime home the test writes — a SILK
// voice fact with its transcript, an AMR one the speech server refused, and the mind's reply with a
// `<voice>` whose SILK it kept — all made here with silk-wasm, no blobs. Debian's chromium driven by
// playwright-core; screenshots test-output/browser/15-voice.png and 15-voice-zh.png.
import { expect } from 'chai'
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Locator, Page } from 'playwright-core'
import { SHOTS, demoInBrowser, language } from '../support/browser-page'
import { runtimeHome } from '../../src/runtime/runtime'
import { AssetStore } from '../../src/resources/schemes/asset-store'
import type { Entry } from '../../src/history/entries'
import { amrHeader, silk, tone } from '../support/audio-fixtures'

const BOT = 'sandbox:voice:koishi'
const KEY = 'group:fun'
const HEARD = '今晚一起打游戏吗？八点开始'
const SAID = '好呀，八点见，我先去吃饭'
const WHY = 'the speech server failed: HTTP 400: Invalid file format. Supported formats: flac, m4a, mp3, mp4, mpeg, mpga, oga, ogg, wav, webm'

const dataUrl = (b: Buffer, type: string) => `data:${type};base64,${b.toString('base64')}`

/** the history of a group where Mia spoke, Bo's voice could not be transcribed, and the mind answered in voice */
async function writeHome(home: string): Promise<void> {
  const assets = new AssetStore(join(home, 'assets'))
  const mia = `asset://${await assets.register(dataUrl(await silk(tone(3.2, { hz: 300 })), 'audio/amr'), { filename: 'mia.amr' })}`
  const bo = `asset://${await assets.register(dataUrl(amrHeader(), 'audio/amr'), { filename: 'bo.amr' })}`
  const mine = `asset://${await assets.register(dataUrl(await silk(tone(1.8, { hz: 220 })), 'audio/silk'), { filename: 'voice' })}`
  const at = Date.now() - 600_000
  const user = (id: string) => ({ id, name: id })
  const fact = (id: string, t: number, who: string, content: string): Entry => ({
    type: 'fact', at: t, ...(who === 'mia' ? { wake: 'name:neko' } : {}),
    fact: { id, at: t, bot: BOT, channel: KEY, direct: false, user: user(who), content },
  })
  const said = `<voice>${SAID}</voice>`
  const sent = { ok: true, ids: ['s1', 's2'], voices: [mine] }
  const entries: Entry[] = [
    fact('m1', at, 'mia', `[voice: ${mia}]`),
    { type: 'transcript', at: at + 900, url: mia, message: { id: 'm1', channel: KEY, user: user('mia') }, seconds: 3.2, text: HEARD },
    fact('m2', at + 2000, 'bo', `me too!\n[voice: ${bo}]`),
    { type: 'transcript', at: at + 2100, url: bo, message: { id: 'm2', channel: KEY, user: user('bo') }, seconds: 2, why: WHY },
    { type: 'turn', at: at + 3000, turn: 1, reason: 'name:neko' },
    {
      type: 'step', at: at + 5000, turn: 1, usage: { model: 'main', latencyMs: 1800, promptTokens: 900, completionTokens: 40 },
      messages: [
        { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'send_message', input: { messages: ['好', said] } }] },
        // send_message keeps the SILK it sent and lists it (the console plays it)
        { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 'send_message', output: { type: 'json', value: sent } }] },
      ],
    },
  ]
  await mkdir(join(home, 'conversations'), { recursive: true })
  await writeFile(join(home, 'conversations', `${encodeURIComponent(KEY)}.jsonl`), entries.map(e => JSON.stringify(e)).join('\n') + '\n')
}

/** Plays the player's audio to its end (muted) and answers its src's start, its duration and whether it ended. */
async function play(voice: Locator): Promise<{ src: string; duration: number; ended: boolean }> {
  const audio = voice.locator('audio')
  await audio.evaluate((a: HTMLAudioElement) => new Promise<void>((resolve, reject) => {
    const wait = setInterval(() => {
      if (!a.src) return
      clearInterval(wait)
      a.muted = true
      a.playbackRate = 4
      a.addEventListener('ended', () => resolve(), { once: true })
      a.addEventListener('error', () => reject(new Error(`the audio did not load: ${a.error?.message}`)), { once: true })
      a.play().catch(reject)
    }, 20)
  }))
  return audio.evaluate((a: HTMLAudioElement) => {
    const played = { src: a.src.slice(0, 30), duration: a.duration, ended: a.ended }
    // back to how the owner finds it, for the screenshot
    a.muted = false
    a.playbackRate = 1
    a.currentTime = 0
    return played
  })
}

describe('console page in a real browser: voice messages', function () {
  this.timeout(60000)
  const s = demoInBrowser({ prefix: 'voice', seed: dataDir => writeHome(runtimeHome(join(dataDir, 'kotodama'), 'demo', BOT)) })

  const open = async (p: Page) => {
    await p.goto(`${s.demo.url}/kotodama`)
    await p.locator('.kd-runtime').filter({ hasText: BOT }).click()
    await p.locator('.kd-conversation').filter({ hasText: KEY }).click()
    await p.locator('.kd-voice').nth(2).waitFor()
  }

  it('shows each voice as a player with its length and transcript, or why it has none; playing one loads a WAV', async () => {
    await s.page.goto(`${s.demo.url}/kotodama`)
    await language(s.page, 'en-US')
    await open(s.page)
    const voices = s.page.locator('.kd-voice')
    expect(await voices.count()).to.equal(3)
    const [mia, bo, mine] = [voices.nth(0), voices.nth(1), voices.nth(2)]
    // the voice line is the player: Mia's bubble holds nothing else
    expect(await s.page.locator('.kd-fact').filter({ hasText: 'mia' }).locator('.kd-bubble').innerText()).to.not.include('asset://')
    expect(await mia.locator('.kd-voice-text').innerText()).to.equal(`“${HEARD}”`)
    expect(await s.page.locator('.kd-fact').filter({ hasText: 'bo' }).locator('.kd-bubble').innerText()).to.match(/^me too!/)
    expect(await bo.locator('.kd-voice-why').innerText()).to.equal(`not transcribed: ${WHY}`)
    // AMR: the s.page says why it cannot play it
    await bo.locator('.kd-voice-none').waitFor()
    expect(await bo.locator('.kd-voice-none').innerText()).to.match(/browsers do not play AMR/)
    expect(await bo.locator('audio').count()).to.equal(0)
    expect(await bo.locator('.kd-voice-length').innerText()).to.equal('2 s')
    expect(await mine.locator('.kd-voice-text').innerText()).to.equal(`said “${SAID}”`)
    // the mind's voice sits under the message that held it
    expect(await s.page.locator('.kd-send .kd-sent-voice').count()).to.equal(1)

    const heard = await play(mia)
    expect(heard.src).to.match(/^data:audio\/wav;base64,/)
    expect(heard.duration).to.be.closeTo(3.2, 0.1)
    const said = await play(mine)
    expect(said.src).to.match(/^data:audio\/wav;base64,/)
    expect(said.duration).to.be.closeTo(1.8, 0.1)
    expect(heard.ended && said.ended, 'played to the end').to.equal(true)
    // once the audio tells its length the player shows it; the line's goes
    expect(await mia.locator('.kd-voice-length').count()).to.equal(0)
    expect(await mine.locator('.kd-voice-length').count()).to.equal(0)
    await s.page.mouse.move(1300, 880)
    await s.page.screenshot({ path: join(SHOTS, '15-voice.png') })
  })

  it('in Chinese', async () => {
    await language(s.page, 'zh-CN')
    const zh = await s.page.context().newPage()
    await open(zh)
    const voices = zh.locator('.kd-voice')
    expect(await voices.nth(1).locator('.kd-voice-length').innerText()).to.equal('2 秒')
    expect(await voices.nth(1).locator('.kd-voice-why').innerText()).to.match(/^未转写：/)
    await voices.nth(1).locator('.kd-voice-none').filter({ hasText: '浏览器不支持 AMR' }).waitFor()
    // the players read their lengths from the audio, unplayed
    await zh.waitForFunction(() => [...document.querySelectorAll('.kd-voice audio')].every(a => (a as HTMLAudioElement).duration > 0))
    expect(await voices.nth(2).locator('.kd-voice-text').innerText()).to.equal(`说了“${SAID}”`)
    await zh.mouse.move(1300, 880)
    await zh.screenshot({ path: join(SHOTS, '15-voice-zh.png') })
    await zh.close()
  })
})

// Headless Chromium (Debian's chromium, driven by playwright-core) for the console page's specs:
// one launch, an English console in a 1400×900 window, the language switch, the screenshots folder.
import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { Logger } from 'koishi'
import { chromium, type Browser, type Page } from 'playwright-core'
import { ensureClientBuilt } from '../../scripts/client-build'
import { startDemo, type Demo, type DemoOptions } from '../../scripts/demo'
import { freePort } from './free-port'

export const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium'
export const SHOTS = join(resolve(__dirname, '..', '..'), 'test-output', 'browser')

/** Skips the suite without a browser; else (re)builds the page (a fresh clone, a changed client/) and makes the screenshots folder. */
export async function needBrowser(suite: Mocha.Context): Promise<void> {
  if (!existsSync(CHROMIUM)) {
    console.log(`    skipped: no browser at ${CHROMIUM} (install Debian's chromium, or set CHROMIUM_PATH)`)
    suite.skip()
  }
  ensureClientBuilt()
  await mkdir(SHOTS, { recursive: true })
}

/** A browser and a page whose console starts in English (the console's own setting starts in zh-CN). */
export async function openPage(): Promise<{ browser: Browser; page: Page }> {
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] })
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 }, locale: 'en-US' })
  context.setDefaultTimeout(15000)
  await context.addInitScript(() => {
    if (!localStorage.getItem('koishi.console.config')) {
      localStorage.setItem('koishi.console.config', JSON.stringify({ theme: { mode: 'light', dark: 'default-dark', light: 'default-light' }, locale: 'en-US' }))
    }
  })
  return { browser, page: await context.newPage() }
}

/** Sets the console's language for the pages opened after. */
export function language(p: Page, locale: string): Promise<void> {
  return p.evaluate((locale) => {
    const config = JSON.parse(localStorage.getItem('koishi.console.config') ?? '{}')
    localStorage.setItem('koishi.console.config', JSON.stringify({ ...config, locale }))
  }, locale)
}

/** What a browser spec of the console works with: the demo, the page, the demo's data folder. */
export interface DemoPage {
  demo: Demo
  page: Page
  browser: Browser
  dataDir: string
}

/**
 * One demo (offline model, a data folder of its own) and one browser page for the suite: `seed`
 * prepares the data folder before the demo starts (stored homes, notes, stickers); after the suite
 * all is closed and removed. The returned object is filled in by the suite's `before`.
 */
export function demoInBrowser(o: { prefix: string; demo?: Omit<DemoOptions, 'port' | 'offline' | 'dataDir'>; seed?(dataDir: string): Promise<void> }): DemoPage {
  const s = {} as DemoPage
  before(async function () {
    await needBrowser(this)
    Logger.targets[0].levels = { base: 1 }
    s.dataDir = await mkdtemp(join(tmpdir(), `kotodama-browser-${o.prefix}-`))
    await o.seed?.(s.dataDir)
    s.demo = await startDemo({ port: await freePort(), offline: true, dataDir: s.dataDir, ...o.demo })
    ;({ browser: s.browser, page: s.page } = await openPage())
  })
  after(async () => {
    await s.browser?.close()
    await s.demo?.stop()
    delete Logger.targets[0].levels
    if (s.dataDir) await rm(s.dataDir, { recursive: true, force: true })
  })
  return s
}

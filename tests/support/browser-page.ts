// Headless Chromium (Debian's chromium, driven by playwright-core) for the console page's specs:
// one launch, an English console in a 1400×900 window, the language switch, the screenshots folder.
import { existsSync } from 'node:fs'
import { mkdir } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { chromium, type Browser, type Page } from 'playwright-core'
import { ensureClientBuilt } from '../../scripts/client-build'

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

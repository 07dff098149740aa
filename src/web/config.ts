// The web section of a profile (SPEC §24 "The web"): which search provider `web://search` asks,
// where it is, its key, how many results a page shows and what a query costs.
import Schema from 'schemastery'
import type { FieldCheck, PartSection } from '../part/plugin'
import { wholeFrom } from '../config/section'
import zhCN from './config.zh-CN.yml'
import enUS from './config.en-US.yml'

export const PROVIDERS = ['searxng', 'brave', 'tavily'] as const
export type ProviderName = typeof PROVIDERS[number]

export interface WebConfig {
  /** '' : no web search */
  search: '' | ProviderName
  /** searxng: the instance's root (required); brave, tavily: '' for the public endpoint, else a proxy of it */
  baseURL: string
  /** brave, tavily */
  apiKey: string
  /** results on one page */
  maxResults: number
  /** per query sent upstream, in the unit of models[].price */
  price: number
}

export const DEFAULT_WEB: Readonly<WebConfig> = { search: '', baseURL: '', apiKey: '', maxResults: 8, price: 0 }

/** Brave's `count` and Tavily's `max_results` stop at 20. */
export const MAX_RESULTS = 20

const httpURL = (v: unknown) => {
  try {
    return /^https?:$/.test(new URL(String(v)).protocol)
  } catch {
    return false
  }
}

const CHECKS: Record<string, FieldCheck> = {
  search: v => v === '' || PROVIDERS.includes(v as ProviderName) ? undefined : `must be '', ${PROVIDERS.join(', ')}`,
  baseURL: v => v === '' || (typeof v === 'string' && httpURL(v)) ? undefined : 'must be an http:// or https:// URL, or empty',
  apiKey: v => typeof v === 'string' ? undefined : 'must be a string',
  maxResults: wholeFrom(1, MAX_RESULTS),
  price: v => typeof v === 'number' && Number.isFinite(v) && v >= 0 ? undefined : 'must be a number >= 0',
}

/** A provider without what it cannot work without is turned off, its missing field named. */
function across(c: WebConfig, report: (path: string, message: string) => void): WebConfig {
  if (c.search === 'searxng' && !c.baseURL) {
    report('baseURL', "must be set for search 'searxng' (the instance's root, e.g. http://127.0.0.1:8888); web search is off")
    return { ...c, search: '' }
  }
  if ((c.search === 'brave' || c.search === 'tavily') && !c.apiKey.trim()) {
    report('apiKey', `must be set for search '${c.search}' (the provider's API key); web search is off`)
    return { ...c, search: '' }
  }
  return c
}

function schema(): Schema<any, WebConfig> {
  const d = DEFAULT_WEB
  return Schema.object({
    search: Schema.union(['', ...PROVIDERS]).default(d.search),
    baseURL: Schema.string().default(d.baseURL),
    apiKey: Schema.string().role('secret').default(d.apiKey),
    maxResults: Schema.natural().min(1).max(MAX_RESULTS).default(d.maxResults),
    price: Schema.number().min(0).default(d.price),
  }).i18n({ 'zh-CN': zhCN, 'en-US': enUS }) as Schema<any, WebConfig>
}

export const webSection: PartSection<WebConfig> = { key: 'web', default: DEFAULT_WEB, schema, checks: CHECKS, across, secrets: ['apiKey'] }

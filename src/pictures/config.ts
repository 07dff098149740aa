// The images section of a profile (SPEC §24): which image model draws, at what size, how many
// pictures a person may have drawn a day, and the persona's own reference picture.
import Schema from 'schemastery'
import type { FieldCheck, PartSection } from '../part/plugin'
import { wholeFrom } from '../config/section'
import zhCN from './config.zh-CN.yml'
import enUS from './config.en-US.yml'

export interface PicturesConfig {
  /** a models[] id of kind image; '': no draw tool */
  model: string
  /** WxH, e.g. 1024x1024 */
  size: string
  /** pictures one person may have drawn per local day (budgets.timezone) */
  perUserDay: number
  /** a local:// picture of the persona, for `draw({ image: 'reference' })`; '' : none */
  reference: string
}

export const DEFAULT_PICTURES: Readonly<PicturesConfig> = { model: '', size: '1024x1024', perUserDay: 5, reference: '' }

/** WxH as the images API takes it */
export const SIZE = /^[1-9]\d{1,4}x[1-9]\d{1,4}$/

const CHECKS: Record<keyof PicturesConfig, FieldCheck> = {
  model: (v, c) => {
    if (typeof v !== 'string') return 'must be a model id or empty'
    if (!v) return undefined
    if (!c.hasModel(v)) return `names unknown model "${v}"`
    return c.kindOf?.(v) === 'image' ? undefined : `names model "${v}", which is not of kind image`
  },
  size: v => typeof v === 'string' && SIZE.test(v) ? undefined : 'must be WIDTHxHEIGHT, e.g. 1024x1024',
  perUserDay: wholeFrom(0, 10_000),
  reference: v => v === '' || (typeof v === 'string' && v.startsWith('local://')) ? undefined : 'must be a local:// picture or empty',
}

function schema(): Schema<any, PicturesConfig> {
  const d = DEFAULT_PICTURES
  return Schema.object({
    model: Schema.string().default(d.model),
    size: Schema.string().default(d.size),
    perUserDay: Schema.number().default(d.perUserDay),
    reference: Schema.string().default(d.reference),
  }).i18n({ 'zh-CN': zhCN, 'en-US': enUS }) as Schema<any, PicturesConfig>
}

export const picturesSection: PartSection<PicturesConfig> = { key: 'images', default: DEFAULT_PICTURES, schema, checks: CHECKS }

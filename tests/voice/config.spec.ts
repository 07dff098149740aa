// The voice section in its folder (src/voice/config.ts): the same console form, defaults and texts
// as the plugin's form shows; `stt` and `tts` must name a model of the config ('vits' for speaking).
import { expect } from 'chai'
import { Config } from '../../src'
import type { SectionContext } from '../../src/part/plugin'
import { DEFAULT_VOICE, voiceSection } from '../../src/voice/config'
import { profileFormOf, schemaShape } from '../support/schema-shape'

const context: SectionContext = { hasModel: id => id === 'ears' }
const check = (path: string, value: unknown) => voiceSection.checks![path](value, context)

describe('voice: its config section', () => {
  it('is the form the console shows: fields, defaults, zh-CN and en-US texts', () => {
    expect(schemaShape(voiceSection.schema())).to.deep.equal(schemaShape(profileFormOf(Config, 'voice')))
    expect(voiceSection.schema()(undefined)).to.deep.equal(DEFAULT_VOICE)
  })
  it('stt and tts name models of the config; vits only speaks', () => {
    expect(check('stt', 'ears')).to.equal(undefined)
    expect(check('stt', 'vits')).to.equal('names unknown model "vits"')
    expect(check('tts', 'vits')).to.equal(undefined)
    expect(check('tts', 'mouth')).to.equal(`names unknown model "mouth" (or write 'vits' for Koishi's vits service)`)
    expect(check('maxChars', 1.5)).to.equal('must be a whole number > 0')
    expect(check('maxSeconds', 0)).to.equal('must be a number > 0')
  })
})

// The stickers section in its folder (src/stickers/config.ts): the same console form, defaults and
// texts as the plugin's form shows, and its checks with the messages the owner reads.
import { expect } from 'chai'
import { Config } from '../../src'
import type { SectionContext } from '../../src/part/plugin'
import { DEFAULT_STICKERS, stickersSection } from '../../src/stickers/config'
import { profileFormOf, schemaShape } from '../support/schema-shape'

const context: SectionContext = { hasModel: () => false }
const check = (path: string, value: unknown) => stickersSection.checks![path](value, context)

describe('stickers: its config section', () => {
  it('is the form the console shows: fields, defaults, zh-CN and en-US texts', () => {
    expect(schemaShape(stickersSection.schema())).to.deep.equal(schemaShape(profileFormOf(Config, 'stickers')))
    expect(stickersSection.schema()(undefined)).to.deep.equal(DEFAULT_STICKERS)
    const shape = schemaShape(stickersSection.schema()) as any
    expect(shape.dict.maxPerTurn.description['zh-CN']).to.equal('一轮最多发送的表情包数；多出的会被丢弃并告知心智。')
    expect(shape.dict.learn.dict.groups.description['en-US']).to.equal('Claim patterns of the groups where stickers are collected.')
  })
  it('checks each field by its dotted path, the learning ones included', () => {
    expect(check('maxPerTurn', -1)).to.equal('must be a whole number >= 0')
    expect(check('dir', 3)).to.equal('must be a folder path or empty')
    expect(check('learn.groups', ['group:1', 2])).to.equal('must be a list of claim patterns')
    expect(check('learn.windowMinutes', 0)).to.equal('must be a number > 0')
    expect(check('enabled', true)).to.equal(undefined)
    expect(Object.keys(stickersSection.checks!)).to.include.members(['enabled', 'offer', 'learn.enabled', 'learn.seenTimes', 'learn.perDay'])
  })
})

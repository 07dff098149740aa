// The initiative section in its folder (src/initiative/config.ts): the same console form, defaults
// and texts as the plugin's form shows; the window and the zone checked as the schedule reads them.
import { expect } from 'chai'
import { Config } from '../../src'
import { DEFAULT_INITIATIVE, initiativeSection } from '../../src/initiative/config'
import type { SectionContext } from '../../src/part/plugin'
import { profileFormOf, schemaShape } from '../support/schema-shape'

const context: SectionContext = { hasModel: () => false }
const check = (path: string, value: unknown) => initiativeSection.checks![path](value, context)

describe('initiative: its config section', () => {
  it('is the form the console shows: fields, defaults, zh-CN and en-US texts', () => {
    expect(schemaShape(initiativeSection.schema())).to.deep.equal(schemaShape(profileFormOf(Config, 'initiative')))
    expect(initiativeSection.schema()(undefined)).to.deep.equal(DEFAULT_INITIATIVE)
  })
  it('a bad window, zone or backoff says why', () => {
    expect(check('activeHours', '25:00-7')).to.match(/is not 'HH:MM-HH:MM'/)
    expect(check('activeHours', '20:00-02:00')).to.equal(undefined)
    expect(check('timezone', 'Mars/Olympus')).to.match(/"Mars\/Olympus" is not a time zone/)
    expect(check('timezone', '')).to.equal(undefined)
    expect(check('backoff', 0.5)).to.match(/must be a number >= 1/)
    expect(check('perDay', 0)).to.equal('must be a whole number >= 1')
  })
})

// Share cards as the model reads them (SPEC §19 "cards (json/xml, shares): title, description and
// link"): QQ's ark JSON and its older XML cards; their preview pictures never reach the model.
import { expect } from 'chai'
import { h } from 'koishi'
import { renderCard } from '../../src/inbound/card'

const read = (type: string, data: string) => renderCard(h(type, { data }))!.attrs.content as string

describe('share cards', () => {
  it('an ark reads its view\'s title, description and link', () => {
    const mini = { app: 'com.tencent.miniapp_01', prompt: '[QQ小程序]哔哩哔哩', meta: { detail_1: { title: '哔哩哔哩', desc: '猫', qqdocurl: 'https://b23.tv/q', preview: 'https://pic.example/x.png' } } }
    expect(read('json', JSON.stringify(mini))).to.equal('[card: 哔哩哔哩 — 猫 (https://b23.tv/q)]')
    // no view: the prompt QQ shows in the chat list
    expect(read('json', JSON.stringify({ app: 'x', prompt: '[分享]标题' }))).to.equal('[card: [分享]标题]')
  })

  it('an XML card reads its title, summary and link; entities decoded; no picture', () => {
    const xml = '<?xml version="1.0"?><msg serviceID="1" brief="[分享]简" url="https://example.com/a?x=1&amp;y=2">'
      + '<item><title>标题 &amp; 更多</title><summary>摘要</summary><picture cover="https://gchat.qpic.cn/x.png"/></item></msg>'
    const text = read('xml', xml)
    expect(text).to.equal('[card: 标题 & 更多 — 摘要 (https://example.com/a?x=1&y=2)]')
    expect(text).to.not.include('qpic')
  })

  it('a card that cannot be read is [card], never its raw data; other elements are not cards', () => {
    expect(read('json', 'not json')).to.equal('[card]')
    expect(read('json', JSON.stringify({ meta: { news: { preview: 'https://pic.example/x.png', jumpUrl: 'javascript:alert(1)' } } }))).to.equal('[card]')
    expect(renderCard(h('mface', { summary: '[好耶]' }))).to.equal(undefined)
  })

  it('a long title is cut on a whole character', () => {
    const title = '𝒜'.repeat(150)
    const text = read('json', JSON.stringify({ meta: { news: { title } } }))
    expect(text.startsWith('[card: 𝒜')).to.equal(true)
    expect(text).to.match(/…\]$/)
    expect(text).to.not.match(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/)
  })
})

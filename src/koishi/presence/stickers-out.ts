// A sticker on its way out (SPEC §19). send_message makes `<sticker name>` an `<img>` marked with
// STICKER_ATTR; here it becomes an image marked as a sticker where the platform has the mark
// (capabilities.ts `stickerMark`), and a plain image elsewhere (the marker never leaves kotodama).
// - NapCat shows an `image` segment as a sticker when it has `sub_type: 1`, with `summary` as its
//   preview text (NapCatQQ packages/napcat-onebot api/msg.ts, the `image` converter of
//   ob11ToRawConverters: `createValidSendPicElement(…, sendMsg.data.summary, sendMsg.data.sub_type)`).
// - koishi-plugin-adapter-onebot 6.9.4 (lib/index.js, OneBotMessageEncoder.visit) copies an `img`'s
//   attributes into that segment as they are. But bot.sendMessage re-creates every element first
//   (MessageEncoder.send → session.transform → h(), which camel-cases keys), so `sub_type` written in
//   the content reaches NapCat as `subType`, which it ignores. The key is therefore set on the
//   elements the `before-send` event hands over, after the last re-creation.
import { Context, h } from 'koishi'
import { STICKER_ATTR } from '../../util/elements'
import { hasStickerMark } from './capabilities'

/** The sticker mark of each platform that has one, as its adapter must put it on the wire. */
const MARKS: Record<string, Record<string, unknown>> = {
  onebot: { sub_type: 1, summary: '[动画表情]' },
}

const MARKER = 'kotodama-sticker'

function markOf(platform: string): Record<string, unknown> | undefined {
  return hasStickerMark(platform) ? MARKS[platform] : undefined
}

/**
 * The content as `platform` should get it: marked stickers stay marked where it has a sticker mark
 * (the `before-send` listener puts the mark on), and are plain images elsewhere.
 */
export function outboundStickers(content: string, platform: string): string {
  if (!content.includes(MARKER) || markOf(platform)) return content
  return strip(h.parse(content)).join('')
}

function strip(elements: h[]): h[] {
  return elements.map(el => {
    const children = el.children?.length ? strip(el.children) : el.children
    if (!(STICKER_ATTR in (el.attrs ?? {})) && children === el.children) return el
    const { [STICKER_ATTR]: _, ...attrs } = el.attrs
    return h(el.type, attrs, children)
  })
}

/** Puts the platform's sticker mark on each marked image of every message this context's bots send. */
export function markStickersOnSend(ctx: Context): void {
  ctx.on('before-send', session => {
    const elements = session.elements
    if (elements?.length) mark(elements, markOf(session.platform))
  })
}

function mark(elements: h[], marks: Record<string, unknown> | undefined): void {
  for (const el of elements) {
    const attrs = el.attrs
    if (attrs && STICKER_ATTR in attrs) {
      delete attrs[STICKER_ATTR]
      if (marks && (el.type === 'img' || el.type === 'image')) {
        // the wire's own spelling, which no later step re-cases
        delete attrs.subType
        Object.assign(attrs, marks)
      }
    }
    if (el.children?.length) mark(el.children, marks)
  }
}

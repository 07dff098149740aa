// What a message of send_message may point at (SPEC §19): `<quote id>` a message the mind saw in
// this conversation (or sent), `<at id>` a member who wrote in the channel (groups only), `<face>`
// a face the platform knows. Anything else is dropped and reported in `dropped`; the message is
// still sent.
import h from '@satorijs/element'

export interface SendRefs {
  /** a private chat: no one to mention */
  direct: boolean
  /** the conversation had message `id` in the target channel, or the bot sent it */
  message(id: string): boolean
  /** `id` wrote in the target channel (or is the bot) */
  member(id: string): boolean
  /** `<face>` names a face (absent: not checked) */
  face?(attrs: Record<string, unknown>): boolean
}

export interface RefDropped { src: string; code: string; message: string }

const shown = (el: h) => h(el.type, el.attrs).toString().slice(0, 120)

/** The elements with references that point nowhere left out, each reported in `dropped`. */
export function checkRefs(elements: h[], refs: SendRefs, dropped: RefDropped[]): h[] {
  const out: h[] = []
  for (const el of elements) {
    const why = problem(el, refs)
    if (why) {
      dropped.push({ src: shown(el), ...why })
      continue
    }
    out.push(el.children?.length ? h(el.type, el.attrs, checkRefs(el.children, refs, dropped)) : el)
  }
  return out
}

function problem(el: h, refs: SendRefs): { code: string; message: string } | undefined {
  const id = el.attrs?.id === undefined ? '' : String(el.attrs.id)
  if (el.type === 'quote') {
    if (!id) return { code: 'unknown_message', message: '<quote> needs the id of a message (#id in the chat)' }
    if (!refs.message(id)) return { code: 'unknown_message', message: `no message #${id} in this conversation; quote an id you saw` }
  }
  if (el.type === 'at') {
    if (refs.direct) return { code: 'not_a_group', message: 'a private chat has no one to mention' }
    if (el.attrs?.type === 'all' || el.attrs?.type === 'here') return { code: 'not_allowed', message: 'mentioning everyone is not allowed' }
    if (!id) return { code: 'unknown_member', message: '<at> needs the id of a member (the number after their name)' }
    if (!refs.member(id)) return { code: 'unknown_member', message: `${id} has not written in this channel; mention someone who has` }
  }
  if (el.type === 'face' && refs.face && !refs.face(el.attrs ?? {})) {
    return { code: 'unknown_face', message: 'no QQ face has this id or name; copy a face you saw, e.g. <face name="微笑"/>' }
  }
  return undefined
}

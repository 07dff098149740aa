// `<face>` in what the mind sends (SPEC §19): a QQ face where the platform has them (OneBot's
// `face` segment by id), its name as text elsewhere. The mind reads faces as `<face name="斜眼笑"/>`
// (inbound/face.ts), and may write that as well as `<face id="178"/>`; names and ids come from `qface`
// (koishijs/QFace, the table koishi-plugin-adapter-onebot decodes faces with).
import { h } from 'koishi'
import * as qface from 'qface'
import { hasFaces } from './capabilities'

/** Whether `<face id|name>` names a QQ face (send_message drops and reports one that does not). */
export function isFace(attrs: { id?: unknown; name?: unknown }): boolean {
  return !!faceOf(attrs)
}

function faceOf(attrs: { id?: unknown; name?: unknown }): { id: string; name: string } | undefined {
  const byId = attrs.id !== undefined && attrs.id !== '' ? qface.get(String(attrs.id)) : undefined
  const name = typeof attrs.name === 'string' ? attrs.name.replace(/^\//, '').trim() : ''
  const found = byId ?? (name ? qface.data.find(f => f.QDes === `/${name}`) : undefined)
  return found ? { id: found.QSid, name: found.QDes.slice(1) } : undefined
}

/** The content with every `<face>` made what `platform` can send (one naming no face is left out). */
export function outboundFaces(content: string, platform: string): string {
  if (!content.includes('<face')) return content
  const native = hasFaces(platform)
  return h.transform(h.parse(content), {
    face(attrs) {
      const face = faceOf(attrs)
      if (!face) return ''
      return native ? h('face', { id: face.id, platform }) : h.text(`[${face.name}]`)
    },
  }).join('')
}

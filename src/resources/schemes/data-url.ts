// The bytes a data: URL carries (an asset registered from one is stored at once, SPEC §5.4).
import { ResourceError } from '../errors'

export function decodeDataUrl(url: string): { data: Buffer; mediaType?: string } {
  const m = /^data:([^;,]*)((?:;[^;,]*)*?)(;base64)?,(.*)$/s.exec(url)
  if (!m) throw new ResourceError('invalid_url', 'malformed data: URL')
  const data = m[3] ? Buffer.from(m[4], 'base64') : Buffer.from(decodeURIComponent(m[4]), 'utf8')
  return { data, mediaType: m[1] || undefined }
}

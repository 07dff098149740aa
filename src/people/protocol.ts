// The people paragraph of the protocol (protocol.md beside it), naming the folder of this
// runtime's platform, so the model copies a real URL's shape (SPEC §27 "Who is who").
import { prose } from '../util/prose'
import PROTOCOL from './protocol.md'
import { personUrl } from './people-path'

const ID = 'USER-ID'

export function peopleProtocol(platform: string): string {
  const url = personUrl(platform, ID)
  return prose(PROTOCOL, {}, { notes: url.slice(0, url.length - `${ID}.md`.length) })
}

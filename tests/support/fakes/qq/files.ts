// QQ's rich-media upload, the part of FakeQQ (fake-qq.ts) that takes images, videos and voices.
// Follows the QQ bot document "富媒体消息" (bot.q.qq.com/wiki develop/api-v2/server-inter/message/
// send-receive/rich-media.md, tencent-connect/bot-docs): `POST /v2/users/{openid}/files` and
// `/v2/groups/{group_openid}/files` with `{ file_type, url | file_data, srv_send_msg }`, file_type
// 1 image (png/jpg), 2 video (mp4), 3 voice (silk), 4 file (暂不开放: not open), answered
// `{ file_uuid, file_info, ttl }` (`ttl` seconds left, 0 for long-lived; `id` too when
// `srv_send_msg: true` sent the message itself, using the proactive quota). The `file_info` is then
// sent as `media.file_info` of a `msg_type: 7` message (send.md); a file uploaded through a group's
// path goes only to groups, a user's only to single chats. The document marks `file_data` (base64)
// 【暂未支持】, yet QQ takes it and it is what @satorijs/adapter-qq 4.11 sends for data: URLs.
// What QQ refuses is checked on the bytes, as QQ does (an `.amr` name does not make a voice):
// the refusals are QQ's live answers (errors.ts MEDIA_FORMAT, MEDIA_DOWNLOAD, FILE_INFO_INVALID).
import { Endpoint, RecordedRequest, ScriptedServer, Wire } from '../scripted-server'
import { QQ_ERRORS, QQErrorEntry, QQReply, refuse } from './errors'
import type { Scene } from './fake-qq'

export const FILE_TYPE = { IMAGE: 1, VIDEO: 2, VOICE: 3, FILE: 4 } as const

/** An upload the bot made, accepted or refused. */
export interface Upload {
  scene: Scene
  /** the group_openid or the user openid of the path */
  chat: string
  fileType: number
  /** the bytes QQ took: `file_data` decoded, or what it fetched from `url` */
  data?: Buffer
  url?: string
  srvSendMsg: boolean
  at: number
  fileUuid?: string
  fileInfo?: string
  ttl?: number
  /** the message's id when `srv_send_msg: true` sent it */
  sentId?: string
  error?: QQErrorEntry
  request: RecordedRequest
}

/** What the uploads need of the rest of FakeQQ. */
export interface FilesHost {
  now(): number
  auth(req: RecordedRequest): QQReply | undefined
  /** the refusal of any message to this chat (a group the bot is not in) */
  chatError(scene: Scene, chat: string): QQErrorEntry | undefined
  /** spends one proactive message of the chat (`srv_send_msg: true`), or says why not */
  proactive(scene: Scene, chat: string): QQErrorEntry | undefined
  messageId(): string
}

/** The bytes a file type takes (rich-media.md "资源格式要求"): PNG/JPEG, MP4 (an ftyp box), SILK with or without QQ's 0x02. */
export function formatOk(fileType: number, b: Buffer): boolean {
  const starts = (hex: string, at = 0) => b.subarray(at, at + hex.length / 2).equals(Buffer.from(hex, 'hex'))
  if (fileType === FILE_TYPE.IMAGE) return starts('89504e470d0a1a0a') || starts('ffd8ff')
  if (fileType === FILE_TYPE.VIDEO) return b.toString('latin1', 4, 8) === 'ftyp'
  if (fileType === FILE_TYPE.VOICE) return b.toString('latin1', b[0] === 0x02 ? 1 : 0, (b[0] === 0x02 ? 1 : 0) + 9) === '#!SILK_V3'
  return false
}

let files = 0

export class RichMedia {
  /** every upload, accepted or refused, in order */
  readonly uploads: Upload[] = []
  readonly groupFiles: Endpoint<QQReply>
  readonly userFiles: Endpoint<QQReply>
  /** the lifetime of a file_info in seconds (0: long-lived) */
  ttl = 3600
  private issued = new Map<string, Upload>()

  constructor(server: ScriptedServer, wire: Wire<QQReply>, private host: FilesHost) {
    const auth = (req: RecordedRequest) => host.auth(req)
    this.groupFiles = server.mount('POST', /\/v2\/groups\/[^/]+\/files/, wire, 'group-files').guard(auth).fallback(req => this.answer('group', req))
    this.userFiles = server.mount('POST', /\/v2\/users\/[^/]+\/files/, wire, 'user-files').guard(auth).fallback(req => this.answer('c2c', req))
  }

  /** The accepted uploads, in order. */
  get accepted(): Upload[] {
    return this.uploads.filter(u => !u.error)
  }

  private async answer(scene: Scene, req: RecordedRequest): Promise<QQReply> {
    const chat = decodeURIComponent(req.path.split('/')[3])
    const body = req.body ?? {}
    const up: Upload = { scene, chat, fileType: body.file_type, srvSendMsg: body.srv_send_msg === true, at: this.host.now(), request: req }
    this.uploads.push(up)
    const fail = (e: QQErrorEntry): QQReply => { up.error = e; return refuse(e) }
    const chatError = this.host.chatError(scene, chat)
    if (chatError) return fail(chatError)
    // file_type and srv_send_msg are required (rich-media.md "必填 是"), and one source
    if (![1, 2, 3, 4].includes(body.file_type) || typeof body.srv_send_msg !== 'boolean') return fail(QQ_ERRORS.REQUEST_INVALID)
    if (body.file_type === FILE_TYPE.FILE) return fail(QQ_ERRORS.FILE_TYPE_CLOSED)
    if (typeof body.file_data === 'string' && body.file_data) up.data = Buffer.from(body.file_data, 'base64')
    else if (typeof body.url === 'string' && /^https?:\/\//.test(body.url)) {
      up.url = body.url
      up.data = await download(body.url)
      if (!up.data) return fail(QQ_ERRORS.MEDIA_DOWNLOAD)
    } else return fail(QQ_ERRORS.REQUEST_INVALID)
    if (!formatOk(body.file_type, up.data)) return fail(QQ_ERRORS.MEDIA_FORMAT)
    if (up.srvSendMsg) {
      const quota = this.host.proactive(scene, chat)
      if (quota) return fail(quota)
      up.sentId = this.host.messageId()
    }
    up.fileUuid = `fake-file-${++files}-${Math.random().toString(36).slice(2, 10)}`
    up.fileInfo = Buffer.from(`fake-file-info:${scene}:${up.fileUuid}`).toString('base64')
    up.ttl = this.ttl
    this.issued.set(up.fileInfo, up)
    return { json: { file_uuid: up.fileUuid, file_info: up.fileInfo, ttl: up.ttl, ...(up.sentId ? { id: up.sentId } : {}) } }
  }

  /** A msg_type 7 message: its `media.file_info` must be one issued for this scene and not expired. */
  media(scene: Scene, body: any): Upload | QQErrorEntry {
    const up = this.issued.get(String(body?.media?.file_info ?? ''))
    if (!up || up.scene !== scene) return QQ_ERRORS.FILE_INFO_INVALID
    if (up.ttl && this.host.now() > up.at + up.ttl * 1000) return QQ_ERRORS.FILE_INFO_INVALID
    return up
  }
}

/** QQ fetching an upload's `url`; undefined when it cannot. */
async function download(url: string): Promise<Buffer | undefined> {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(5000) })
    return res.ok ? Buffer.from(await res.arrayBuffer()) : undefined
  } catch {
    return undefined
  }
}

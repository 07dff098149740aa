// QQ's official bot OpenAPI errors and its wire for the scripted server. Follows the QQ bot
// documents (bot.q.qq.com/wiki, sources in tencent-connect/bot-docs): "openapi 错误"
// (develop/api-v2/openapi/error/error.md: the HTTP statuses, the `code` table, the
// `X-Tps-trace-ID` header), "发送消息" (develop/api-v2/server-inter/message/send-receive/send.md:
// 22009 "msg limit exceed"), "接口调用与鉴权" (dev-prepare/interface-framework/api-use.md) and "富媒体消息"
// (send-receive/rich-media.md, no codes of its own: the live ones, see MEDIA_FORMAT).
// The error body is `{ message, code, err_code, trace_id }`, as QQ answers on the wire (e.g.
// `{"message":"消息被去重，请检查请求msgseq","code":40054005,"err_code":40054005}` quoted in
// AstrBot #6931 and openclaw-qqbot logs). Codes the tables do not list are marked with where
// they were seen.
import { Delivery, Payload, Wire } from '../scripted-server'

export interface QQErrorEntry {
  status: number
  code: number
  message: string
}

/** The refusals the fake gives, each with its HTTP status, QQ's code and QQ's message. */
export const QQ_ERRORS = {
  /** error.md 11241 ErrorWrongToken: no token in the request */
  TOKEN_MISSING: { status: 401, code: 11241, message: 'ErrorWrongToken 参数中缺少 token' },
  /** a wrong or expired token: 401 with 11244 "token not exist or expire" (live answers quoted by peers; not in error.md) */
  TOKEN_INVALID: { status: 401, code: 11244, message: 'token not exist or expire' },
  /** getAppAccessToken with a wrong appId or clientSecret: HTTP 200 with a code (seen live, e.g. openclaw-qqbot logs) */
  SECRET_INVALID: { status: 200, code: 100016, message: 'invalid appid or secret' },
  /** send.md: 22009 msg limit exceed 消息发送超频 (proactive quota spent; also used here for a sixth reply to one message) */
  MSG_LIMIT_EXCEED: { status: 400, code: 22009, message: 'msg limit exceed' },
  /** error.md 304027 MSG_EXPIRE 回复的消息过期 */
  MSG_EXPIRE: { status: 400, code: 304027, message: 'MSG_EXPIRE 回复的消息过期' },
  /** a repeated msg_id + msg_seq (send.md: "相同的 msg_id + msg_seq 重复发送会失败"); 40054005 as QQ answers it live */
  MSG_DEDUP: { status: 400, code: 40054005, message: '消息被去重，请检查请求msgseq' },
  /** a msg_id the bot never received in that chat; 40034024 as QQ answers it live (AstrBot #6931) */
  MSG_ID_INVALID: { status: 400, code: 40034024, message: '请求参数msg_id无效或越权' },
  /** an event_id the bot never received in that chat, or of an event that cannot be answered */
  EVENT_ID_INVALID: { status: 400, code: 40034025, message: 'event_id 无效' },
  /** an event_id older than the reply window (40034026, as peers' error tables list it) */
  EVENT_ID_EXPIRED: { status: 400, code: 40034026, message: 'event_id 已过期' },
  /** a group the bot is not in (40054003, as peers' error tables list it) */
  BOT_NOT_IN_GROUP: { status: 400, code: 40054003, message: '机器人不是群成员' },
  /** error.md 50006 CannotSendEmptyMessage */
  EMPTY_MESSAGE: { status: 400, code: 50006, message: 'CannotSendEmptyMessage 消息为空' },
  /** error.md 12002 RequestInvalid (e.g. no msg_type) */
  REQUEST_INVALID: { status: 400, code: 12002, message: 'RequestInvalid 请求体错误' },
  // rich-media.md lists no codes; these are QQ's live answers, as bots quote them (files.ts)
  /** an upload whose bytes are not of its file_type (rich-media.md "资源格式要求"): 850019, also logged as 40034002 */
  MEDIA_FORMAT: { status: 400, code: 850019, message: '富媒体文件格式不支持' },
  /** an upload `url` QQ could not fetch: 850026 (also logged as 40093007) */
  MEDIA_DOWNLOAD: { status: 400, code: 850026, message: '富媒体文件下载失败' },
  /** a msg_type 7 message whose media.file_info QQ did not issue, has expired, or was uploaded for the other scene: 304080 */
  FILE_INFO_INVALID: { status: 400, code: 304080, message: 'invalid file_info' },
  /** file_type 4 (rich-media.md: "4 文件（暂不开放）"): error.md 11253, the app lacks the permission */
  FILE_TYPE_CLOSED: { status: 400, code: 11253, message: 'ErrorCheckAppPrivilegeNotPass 检查应用权限不通过' },
} satisfies Record<string, QQErrorEntry>

/** A scripted reply of the QQ wire: a success body, or one of QQ's errors. */
export interface QQReply extends Delivery {
  /** the success body (status 200) */
  json?: unknown
  /** refuse with this error */
  error?: QQErrorEntry
}

let traces = 0

/** A QQ error response: its status, body and trace header. */
export function qqErrorPayload(e: QQErrorEntry): Payload {
  const trace = `fake-trace-${++traces}`
  return {
    status: e.status,
    headers: { 'x-tps-trace-id': trace },
    json: { message: e.message, code: e.code, err_code: e.code, trace_id: trace },
  }
}

/** The reply that refuses with `e` (for guards and scripts). */
export function refuse(e: QQErrorEntry): QQReply {
  return { status: e.status, error: e }
}

export function qqOpenAPI(): Wire<QQReply> {
  return {
    // the core's own errors (nothing scripted, bad JSON): QQ's RequestInvalid shape with the core's words
    error: (status, message) => qqErrorPayload({ status, code: 12002, message }),
    render(reply) {
      if (reply.error) return qqErrorPayload(reply.error)
      return { status: reply.status ?? 200, json: reply.json ?? {} }
    },
  }
}

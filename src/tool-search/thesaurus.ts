// Words people use for the same thing when they ask for a tool: a query's words are widened with
// their group here (at half weight), so "remove a file" finds `delete_path` and "answer the email"
// finds `reply`. Only general task words (actions and everyday objects), no tool's own names; a
// group is read through terms(), so its words are stemmed like the index's.
import { terms } from './terms'

const GROUPS = [
  // actions
  'delete remove erase trash discard throw threw thrown destroy wipe 删除 删掉 移除 清除',
  'create add new make 创建 新建 添加 增加',
  'find search look lookup locate seek query 查找 搜索 查询 查 找',
  'get fetch retrieve show read view display see check 获取 查看 显示',
  'list enumerate browse 列出 列表',
  'update edit change modify alter adjust 修改 更改 编辑 更新',
  'move reschedule postpone push shift delay 移动 推迟 改期',
  'rename move',
  'cancel abort 取消 撤销',
  'stop pause halt 停止 暂停',
  'start begin launch 开始 启动',
  'buy purchase order 购买 买 订 预订',
  'sell 卖 出售',
  'send mail post submit 发送 发',
  'reply answer respond 回复 答复',
  'restore recover undelete undo 恢复 还原',
  'available free open 空闲 有空',
  'done complete completed finish finished fixed resolve resolved close 完成 关闭',
  'share link 分享 共享',
  'download save 下载 保存',
  'upload 上传',
  'translate translation 翻译',
  'transcribe transcript dictate 转写 听写',
  'speak say aloud voice speech audio 朗读 语音',
  'remind reminder todo task 提醒 待办 任务',
  'skip next 下一首 跳过',
  // objects
  'appointment meeting event call 会议 日程 约会',
  'agenda calendar schedule 日历 日程表',
  'song track tune music 歌 歌曲 音乐',
  'file document doc 文件 文档',
  'folder directory 文件夹 目录',
  'picture photo image snapshot screenshot 图片 照片 截图',
  'price cost fee rate quote 价格 价钱 费用 多少钱',
  'currency money dollar dollars euro euros yen pound yuan 货币 钱 汇率',
  'temperature hot cold warm warmer cooler heat heating degree degrees celsius 温度 冷 热',
  'now current currently 现在 当前',
  'quiet quieter loud louder volume loudness 音量 声音',
  'bug issue problem error crash defect 问题 故障',
  'lamp light lights bulb 灯',
  'power electricity energy 电 用电',
  'email mail message inbox 邮件',
  'car drive driving 开车 驾车',
  'route directions way navigate 路线 导航',
  'near nearby around 附近',
  'phone mobile telephone 电话 手机',
  'word text 文字 文本',
  'code source 代码',
  'parcel package shipment 包裹 快递',
  'train railway rail 火车 高铁 列车',
  'refund 退 退款 退票',
]

const SYNONYMS = new Map<string, Set<string>>()
for (const group of GROUPS) {
  const words = [...new Set(group.split(' ').flatMap(w => terms(w)))]
  for (const w of words) {
    let set = SYNONYMS.get(w)
    if (!set) SYNONYMS.set(w, set = new Set())
    for (const other of words) if (other !== w) set.add(other)
  }
}

/** The words a query's words stand for as well (stemmed, not already among them). */
export function synonymsOf(words: string[]): string[] {
  const have = new Set(words)
  const out = new Set<string>()
  for (const w of words) for (const s of SYNONYMS.get(w) ?? []) if (!have.has(s)) out.add(s)
  return [...out]
}

// Model-facing text lives in .txt/.md files beside its code, so it can be reviewed as prose.
// Two small conventions keep those files plain: a line starting with `[flag] ` is kept (without
// the tag) only when that flag is on, and `{name}` is replaced by a value.

const FLAG = /^\[([a-zA-Z]+)\] /

export function prose(text: string, flags: Record<string, boolean> = {}, values: Record<string, string | number> = {}): string {
  const lines: string[] = []
  for (const line of text.replace(/\r\n/g, '\n').replace(/\n+$/, '').split('\n')) {
    const flag = FLAG.exec(line)
    if (flag && !flags[flag[1]]) continue
    lines.push(flag ? line.slice(flag[0].length) : line)
  }
  // a paragraph whose every line was left out leaves no blank run behind
  const joined = lines.join('\n').replace(/\n{3,}/g, '\n\n').replace(/\n+$/, '')
  return joined.replace(/\{([a-zA-Z]+)\}/g, (whole, name: string) => name in values ? String(values[name]) : whole)
}

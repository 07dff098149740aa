/**
 * The range of a text read whole (SPEC §4.2; file schemes, web pages, MCP resources): its last
 * line as found, not as asked (`:1-100000` of a 3-line file ends at 3); the file's line count
 * when the read reached its end.
 */
export function wholeRange(text: string, startLine: number, asked?: number): { startLine: number; endLine: number; totalLines?: number } {
  let lines = 0
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) lines++
  if (text && !text.endsWith('\n')) lines++
  const endLine = startLine + lines - 1
  // nothing past a start beyond the end says nothing about the file's length
  if (!lines) return { startLine, endLine, ...(startLine === 1 ? { totalLines: 0 } : {}) }
  return { startLine, endLine, ...(asked === undefined || endLine < asked ? { totalLines: endLine } : {}) }
}

import type { CodemodeLimits } from './types'

export const DEFAULT_CODEMODE: CodemodeLimits = {
  timeoutMs: 30000,
  memoryLimitBytes: 67108864,
  maxToolCalls: 200,
  maxToolInputBytes: 1048576,
  maxToolOutputBytes: 33554432,
  maxResultBytes: 33554432,
}

import type { CodemodeLimits, MemoryConfig } from './types'

export const DEFAULT_CODEMODE: CodemodeLimits = {
  timeoutMs: 30000,
  memoryLimitBytes: 67108864,
  maxToolCalls: 200,
  maxToolInputBytes: 1048576,
  maxToolOutputBytes: 33554432,
  maxResultBytes: 33554432,
}

export const DEFAULT_MEMORY: Readonly<MemoryConfig> = {
  enabled: true,
  maxFileBytes: 1048576,
  maxTotalBytes: 67108864,
  maxFiles: 1000,
  pinned: ['local://memory/core.md'],
  index: true,
}

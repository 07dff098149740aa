// The codemode limits every sandbox benchmark runs under (kept apart so a child can time the sandbox import).
import type { SandboxLimits } from '../src/sandbox/types'

export const LIMITS: SandboxLimits = {
  timeoutMs: 30000, memoryLimitBytes: 64 << 20, maxToolCalls: 5000, maxToolInputBytes: 1 << 20, maxToolOutputBytes: 1 << 25, maxResultBytes: 1 << 25,
}

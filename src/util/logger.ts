/** The log the runtime writes to; the Koishi edge passes its own logger. */
export interface Logger {
  debug(format: any, ...args: any[]): void
  info(format: any, ...args: any[]): void
  warn(format: any, ...args: any[]): void
  error(format: any, ...args: any[]): void
}

// What the runtime needs from the chat platform; the Koishi edge implements it.
/** What the runtime needs from the chat platform; the Koishi edge implements it. */
export interface Platform {
  isOnline(bot: string): boolean
  /** Sends one platform message; resolves with its ids, throws with the platform's reason. */
  send(bot: string, channel: string, content: string, guildId?: string, rawChannel?: string): Promise<string[]>
  /** Shows a typing indicator where the adapter has one; never throws. */
  typing?(bot: string, channel: string): Promise<void>
  /** Fetches remote bytes (assets) through the host's HTTP client. */
  /**
   * Fetches remote bytes (assets) through the host's HTTP client; without one, private addresses
   * are refused unless `allowPrivate`.
   */
  fetch?(url: string, opts: { timeoutMs: number; maxBytes: number; signal?: AbortSignal; allowPrivate: boolean }): Promise<{ data: Buffer; mediaType?: string }>
}

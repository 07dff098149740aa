// The QQ official API keeps no message history a bot may read (docs/platforms.md): nothing to pull.
export const QQ_HISTORY = 'QQ official API: no history'

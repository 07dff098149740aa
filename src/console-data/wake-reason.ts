// The reason the console's "wake now" gives (SPEC §12): the model reads it in English in its wake
// note; the page shows it in the console's language.
export const CONSOLE_WAKE_REASON = 'the owner, from the console'

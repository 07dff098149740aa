// wake.names (SPEC §15): a message that names one of the mind's nicknames counts as a mention,
// anywhere in it and in any case: a whole word where words are separated by spaces or
// punctuation, a plain substring where they are not (Chinese, Japanese). "Koto" wakes on
// "hey koto!" and "我觉得Koto说得对", not on "kotowari"; "小言" wakes on "小言你好".

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
/** letters of scripts that separate words with spaces, and digits: a name must not touch them */
const WORD = '[\\p{Script=Latin}\\p{Script=Cyrillic}\\p{Script=Greek}\\p{N}_]'

export interface NameMatcher {
  /** the name the text contains, if any */
  find(text: string): string | undefined
}

export function nameMatcher(names: string[] | undefined): NameMatcher {
  const list = (names ?? []).map(n => n.trim()).filter(Boolean)
  if (!list.length) return { find: () => undefined }
  const patterns = list.map(name => ({ name, re: new RegExp(`(?<!${WORD})${escape(name)}(?!${WORD})`, 'iu') }))
  return { find: text => patterns.find(p => p.re.test(text))?.name }
}

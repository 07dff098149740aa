// Error text the model or a log reads never carries a link: a platform's file URL holds a key
// (QQ's rkey), a service's holds its address. Any scheme's URL becomes '<url>'.

const ANY_URL = /\b[a-z][a-z0-9+.-]*:\/\/\S+/gi

export const URL_MARK = '<url>'

/** `text` with every URL in it replaced by `mark` ('' removes them). */
export function withoutUrls(text: string, mark = URL_MARK): string {
  return text.replace(ANY_URL, mark)
}

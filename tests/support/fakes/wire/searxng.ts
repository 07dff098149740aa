// SearXNG's search endpoint as a JSON API, for the scripted server. Follows docs.searxng.org "Search
// API" (GET /search with q, format, pageno; the JSON answer's results with url, title, content,
// publishedDate, engine) and "settings.yml › search.formats": a format the instance does not list is
// answered 403 by Flask (searx/webapp.py aborts with 403; its default HTML page), and the default
// settings list html only.
import type { Delivery, RecordedRequest, Wire } from '../scripted-server'

export interface SearxResult {
  url: string
  title: string
  content?: string
  publishedDate?: string | null
}

export interface SearxReply extends Delivery {
  results?: SearxResult[]
  /** a message for a scripted error status (SearXNG itself answers errors as HTML) */
  error?: string
}

const FORBIDDEN = '<!doctype html>\n<html lang=en>\n<title>403 Forbidden</title>\n<h1>Forbidden</h1>\n'
  + '<p>You don&#39;t have the permission to access the requested resource. It is either read-protected or not readable by the server.</p>\n'

const html = (status: number, body: string) => ({ status, bytes: Buffer.from(body), contentType: 'text/html; charset=utf-8' })

export const searxParams = (req: RecordedRequest) => new URLSearchParams(req.query)

/** `formats`: the instance's search.formats (the default install: ['html']). */
export function searxngSearch(formats: () => readonly string[]): Wire<SearxReply> {
  return {
    error: (status, message) => status === 403 ? html(403, FORBIDDEN) : html(status, `<!doctype html>\n<title>${status}</title>\n<p>${message}</p>\n`),
    check(req) {
      const format = searxParams(req).get('format') ?? 'html'
      if (!formats().includes(format)) return { status: 403, message: 'forbidden' }
      if (!searxParams(req).get('q')) return { status: 400, message: 'no query' }
    },
    render(reply, req) {
      if (reply.status && reply.status >= 400) {
        return html(reply.status, `<!doctype html>\n<title>${reply.status}</title>\n<p>${reply.error ?? 'error'}</p>\n`)
      }
      const p = searxParams(req)
      const results = (reply.results ?? []).map((r, i) => ({
        template: 'default.html', engine: 'duckduckgo', engines: ['duckduckgo'], positions: [i + 1], score: 1, category: 'general',
        content: '', publishedDate: null as string | null, ...r,
      }))
      return {
        status: 200,
        json: {
          query: p.get('q'), number_of_results: 0, results, answers: [], corrections: [], infoboxes: [], suggestions: [], unresponsive_engines: [],
        },
      }
    },
  }
}

// A sticker's label (SPEC §19): `<name>.json` beside the image, `{ "description": "one sentence",
// "tags": ["happy", "开心"] }`, written by the owner or by attachment.visionModel. The owner's file
// is read leniently (unknown fields are kept by the owner's editor, ignored here) and checked; a
// vision model's answer strictly, since nonsense must not reach the prompt.

export interface Label {
  description?: string
  tags?: string[]
}

/** a description longer than this is cut (the prompt shows less still: section.ts) */
export const MAX_DESCRIPTION = 200
const MAX_TAGS = 16
const MAX_TAG = 32

/** A label file's text as a label, or why it is not one. */
export function parseLabel(text: string): { label: Label } | { problem: string } {
  let data: unknown
  try {
    data = JSON.parse(text.replace(/^\uFEFF/, ''))
  } catch (e: any) {
    return { problem: `not valid JSON (${e?.message ?? e})` }
  }
  if (!data || typeof data !== 'object' || Array.isArray(data)) return { problem: 'not a JSON object { "description": "...", "tags": [...] }' }
  const { description, tags } = data as Record<string, unknown>
  if (description !== undefined && typeof description !== 'string') return { problem: '"description" is not a string' }
  if (tags !== undefined && !(Array.isArray(tags) && tags.every(t => typeof t === 'string'))) return { problem: '"tags" is not a list of strings' }
  return { label: normalized({ description: description as string | undefined, tags: tags as string[] | undefined }) }
}

/** Trimmed, one line, bounded; empty fields left out. */
export function normalized(l: Label): Label {
  const out: Label = {}
  const d = l.description?.replace(/\s+/g, ' ').trim()
  if (d) out.description = d.length > MAX_DESCRIPTION ? `${d.slice(0, MAX_DESCRIPTION - 1)}…` : d
  const seen = new Set<string>()
  const tags = (l.tags ?? []).map(t => t.replace(/\s+/g, ' ').trim()).filter(t => t && t.length <= MAX_TAG && !seen.has(t) && !!seen.add(t))
  if (tags.length) out.tags = tags.slice(0, MAX_TAGS)
  return out
}

/** The label file's text. */
export function labelText(l: Label): string {
  return `${JSON.stringify(normalized(l), null, 2)}\n`
}

export const LABEL_QUESTION = 'This image is a chat sticker. Answer with JSON only, no other text: '
  + '{"description": "<one short sentence: what it shows and the feeling or reply it expresses>", '
  + '"tags": ["<3 to 8 short words for when to send it, in English and in Chinese>"]}'

/**
 * A vision model's answer as a label, or why it is nonsense: a JSON object (a fenced block or
 * text around it is tolerated) with a one-sentence description and a few short tags.
 */
export function labelFromAnswer(answer: string): { label: Label } | { problem: string } {
  const start = answer.indexOf('{')
  const end = answer.lastIndexOf('}')
  if (start < 0 || end < start) return { problem: 'the answer holds no JSON object' }
  const parsed = parseLabel(answer.slice(start, end + 1))
  if ('problem' in parsed) return parsed
  const { description, tags } = parsed.label
  if (!description || description.length < 3) return { problem: 'the answer has no description' }
  if (description.length >= MAX_DESCRIPTION) return { problem: 'the description is not one sentence' }
  if (!tags?.length) return { problem: 'the answer has no tags' }
  return parsed
}

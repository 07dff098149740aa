// The vision model's check of an image the group keeps sending (SPEC §19 "learn"): is it a sticker,
// is it fit to send to everyone, and its label. The answer is read strictly: anything but the
// JSON asked for is nonsense (retried later), never a yes.
import { labelFromAnswer, type Label } from './label'

export const LEARN_QUESTION = 'People in a group chat keep sending this image. Answer with JSON only, no other text: '
  + '{"isSticker": <true if it is a chat sticker / reaction image (表情包), false for a photo, screenshot, document or other picture>, '
  + '"fit": <true if a friendly bot could send it to anyone: not sexual, gory, hateful, political, an ad, a QR code, personal data, '
  + 'or ugly and illegible>, "description": "<one short sentence: what it shows and the feeling or reply it expresses>", '
  + '"tags": ["<3 to 8 short words for when to send it, in English and in Chinese>"]}'

export type LearnVerdict =
  | { kind: 'fit'; label?: Label }
  | { kind: 'rejected'; why: string }
  | { kind: 'nonsense'; why: string }

/** The answer as a verdict; a fit sticker whose label is unusable is still fit (the labeller tries again). */
export function learnVerdict(answer: string): LearnVerdict {
  const start = answer.indexOf('{')
  const end = answer.lastIndexOf('}')
  if (start < 0 || end < start) return { kind: 'nonsense', why: 'the answer holds no JSON object' }
  let data: unknown
  try {
    data = JSON.parse(answer.slice(start, end + 1))
  } catch (e: any) {
    return { kind: 'nonsense', why: `not valid JSON (${e?.message ?? e})` }
  }
  if (!data || typeof data !== 'object' || Array.isArray(data)) return { kind: 'nonsense', why: 'not a JSON object' }
  const { isSticker, fit } = data as Record<string, unknown>
  if (typeof isSticker !== 'boolean' || typeof fit !== 'boolean') return { kind: 'nonsense', why: '"isSticker" and "fit" are not both true or false' }
  if (!isSticker) return { kind: 'rejected', why: 'not a sticker' }
  if (!fit) return { kind: 'rejected', why: 'not fit to send' }
  const got = labelFromAnswer(answer.slice(start, end + 1))
  return 'label' in got ? { kind: 'fit', label: got.label } : { kind: 'fit' }
}

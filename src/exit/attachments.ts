// Attachments: media a tool returned or a person sent, stored by URL and shown to the model as
// images within lifetimes and budgets (SPEC §7).
import type { Lifetime } from '../config/types'

export interface AttachmentItem {
  url: string
  mediaType: string
  byteLength?: number
  width?: number
  height?: number
  lifetime: Lifetime
}

/** The one-line text that stands for a media node wherever it was. */
export function attachmentLine(a: Omit<AttachmentItem, 'lifetime'>): string {
  const size = a.byteLength !== undefined ? `; ${a.byteLength} bytes` : ''
  const dims = a.width && a.height ? `; ${a.width}x${a.height}` : ''
  return `[attachment: ${a.url}; ${a.mediaType}${size}${dims}]`
}

export const LIFETIMES: Lifetime[] = ['once', 'recent', 'retain']

export function isLifetime(v: unknown): v is Lifetime {
  return typeof v === 'string' && (LIFETIMES as string[]).includes(v)
}

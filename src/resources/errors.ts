export type ResourceErrorCode =
  | 'invalid_url'
  | 'unknown_scheme'
  | 'invalid_selector'
  | 'unsupported_view'
  | 'not_found'
  | 'forbidden'
  | 'too_large'
  | 'not_text'
  | 'read_failed'
  | 'empty_question'
  | 'vision_unavailable'
  | 'not_an_image'
  | 'vision_failed'
  /** a budget of SPEC §22 holds the vision question */
  | 'budget_exceeded'
  | 'invalid_attachment_lifetime'
  | 'no_match'
  | 'ambiguous_match'
  | 'write_failed'
  /** an asset evicted to keep the media store under attachment.maxAssetBytes (SPEC §22) */
  | 'evicted'
  /** an asset not kept: the media store was full of assets shown lately */
  | 'not_kept'
  /** a paid request past codemode.maxPaidCalls in one program (SPEC §22); the error also carries name PaidCallLimit */
  | 'paid_call_limit'

/** An error the model sees as `code: message` (SPEC §4.2). */
export class ResourceError extends Error {
  override name = 'ResourceError'

  /** ambiguous_match: how many times `find` occurs */
  matches?: number

  constructor(readonly code: ResourceErrorCode, message: string) {
    super(message)
  }
}

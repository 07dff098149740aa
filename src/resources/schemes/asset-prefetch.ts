// The background queue that fetches inbound media when they arrive (SPEC §19: QQ's links expire
// within hours): a few fetches at once, a bounded wait list, aborted as a whole on stop.
import { BackgroundQueue } from '../../util/background-queue'

/** At most this many arrival fetches run at once per runtime. */
export const PREFETCH_CONCURRENCY = 4
/** Past this many waiting, the oldest are left for their first read. */
export const PREFETCH_MAX_WAITING = 500

/** The arrival fetches' queue, keyed by asset id; a full wait list is told to `warn` once. */
export function arrivalQueue(warn: (text: string) => void): BackgroundQueue {
  return new BackgroundQueue({
    concurrency: PREFETCH_CONCURRENCY,
    maxWaiting: PREFETCH_MAX_WAITING,
    onFull: max => warn(`more than ${max} inbound media wait to be fetched; `
      + 'the oldest are fetched on first read instead (their links may expire first)'),
  })
}

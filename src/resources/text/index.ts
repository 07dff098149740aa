// Text files paged without reading them whole (SPEC §6): what the rest of the plugin uses.
export { TextCache, type TextLimits } from '../text-cache'
export { readFilePage, readFileRangeText, type FilePageRequest, type FilePageResult, type FileRangeRequest } from './page'
export { TextFile } from './text-file'
export { looksBinary } from '../utf8'

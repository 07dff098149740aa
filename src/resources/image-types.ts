// The images kotodama treats as pictures: the types a model is shown (SPEC §7) and a sticker may be
// (SPEC §19), and their file extensions. Other image/* types (BMP, SVG, HEIC…) are files, not pictures.

export const IMAGE_TYPES: ReadonlySet<string> = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp'])

export const IMAGE_EXTENSIONS: ReadonlySet<string> = new Set(['.png', '.jpg', '.jpeg', '.gif', '.webp'])

// An MP3's length from its frames (SPEC §20, §22: the decoded audio's length, never a header's):
// every frame header is read (ISO 11172-3 / 13818-3: version, layer, bitrate, sample rate,
// padding), its samples summed and the next frame found at its end. A first frame's bitrate says
// nothing of the rest (a variable-bitrate file, or one built to look short); bytes between frames
// are skipped as a decoder skips them.

/** kbit/s by bitrate index 1..14: MPEG-1 layers I, II, III; MPEG-2/2.5 layer I, layers II and III */
const KBPS = {
  v1l1: [32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448],
  v1l2: [32, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384],
  v1l3: [32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320],
  v2l1: [32, 48, 56, 64, 80, 96, 112, 128, 144, 160, 176, 192, 224, 256],
  v2l23: [8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
}
const RATES = [44100, 48000, 32000]

export interface Mp3Frame {
  /** bytes of the frame, header included */
  bytes: number
  samples: number
  rate: number
}

/** The frame whose header starts at `at`; undefined when none does (free-format frames included: their length is unknown). */
export function mp3Frame(b: Uint8Array, at: number): Mp3Frame | undefined {
  if (at + 4 > b.length || b[at] !== 0xff || (b[at + 1] & 0xe0) !== 0xe0) return undefined
  const version = (b[at + 1] >> 3) & 3     // 0: MPEG-2.5, 2: MPEG-2, 3: MPEG-1
  const layer = 4 - ((b[at + 1] >> 1) & 3)  // 1, 2, 3 (4: reserved)
  const index = b[at + 2] >> 4
  const rateIndex = (b[at + 2] >> 2) & 3
  if (version === 1 || layer === 4 || index === 0 || index === 15 || rateIndex === 3) return undefined
  const v1 = version === 3
  const table = v1 ? [KBPS.v1l1, KBPS.v1l2, KBPS.v1l3][layer - 1] : layer === 1 ? KBPS.v2l1 : KBPS.v2l23
  const bitrate = table[index - 1] * 1000
  const rate = RATES[rateIndex] / (v1 ? 1 : version === 2 ? 2 : 4)
  const padding = (b[at + 2] >> 1) & 1
  if (layer === 1) return { bytes: (Math.floor(12 * bitrate / rate) + padding) * 4, samples: 384, rate }
  const samples = layer === 3 && !v1 ? 576 : 1152
  return { bytes: Math.floor(samples / 8 * bitrate / rate) + padding, samples, rate }
}

/** Seconds of audio in the frames of `b`; undefined when it holds no frame. */
export function mp3Seconds(b: Uint8Array): number | undefined {
  let at = 0
  // an ID3v2 tag: its size is four 7-bit bytes
  if (b.length >= 10 && b[0] === 0x49 && b[1] === 0x44 && b[2] === 0x33) at = 10 + ((b[6] << 21) | (b[7] << 14) | (b[8] << 7) | b[9])
  let seconds = 0
  let frames = 0
  while (at + 4 <= b.length) {
    const frame = mp3Frame(b, at)
    if (!frame) {
      at++
      continue
    }
    seconds += frame.samples / frame.rate
    frames++
    at += frame.bytes
  }
  return frames ? seconds : undefined
}

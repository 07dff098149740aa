// What the pictures specs share: a Harness with an image model on a FakeImages server, and a turn
// whose steps are scripted from the tool results the model read.
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { runtimeHome } from '../../src/runtime/runtime'
import type { RecordedRequest } from './fakes/scripted-server'
import { tinyPng } from './tiny-png'
import { lastToolValues } from './fake-openai'
import { FakeImages } from './fake-images'
import { Harness, call, type HarnessOptions } from './harness'

export interface PictureRig {
  h: Harness
  images: FakeImages
}

/** A harness whose profile draws with `painter` (the fake's entry), `images` merged into its section. */
export async function pictureRig(o: { images?: Record<string, unknown>; painter?: Record<string, unknown>; harness?: HarnessOptions } = {}): Promise<PictureRig> {
  const images = await FakeImages.start()
  const ho = o.harness ?? {}
  const h = await Harness.start({
    ...ho,
    extraModels: [images.model(o.painter), ...ho.extraModels ?? []],
    profile: { images: { model: 'painter', ...o.images }, ...ho.profile },
  })
  return { h, images }
}

/** A step that sends the picture the last draw made, then a finish. */
export const sendDrawn = (req: RecordedRequest) => ({ toolCalls: [call('send_message', { messages: [`<img src="${lastToolValues(req, 1)[0].url}"/>`] })] })

/** The results of the draws of the step answered by request `i` (the next request reads them). */
export const drawResults = (h: Harness, i: number, n: number) => lastToolValues(h.server.requests[i], n)

/** The bytes of the first image of a recorded send. */
export function sentPicture(content: string): Buffer | undefined {
  const m = /<img src="data:image\/\w+;base64,([^"]+)"/.exec(content)
  return m ? Buffer.from(m[1], 'base64') : undefined
}

/** The persona's reference picture, `images.reference: 'local://me.png'`, written to the runtime's local/; its bytes. */
export async function writeReference(h: Harness): Promise<Buffer> {
  const me = tinyPng(0x3366cc, 4, 4)
  const local = join(runtimeHome(h.dataDir, 'neko', 'mock:514'), 'local')
  await mkdir(local, { recursive: true })
  await writeFile(join(local, 'me.png'), me)
  return me
}

// Pictures as a part (SPEC §24): with images.model set, the draw tool; otherwise nothing, so the
// request gains no tokens. The day's counts per person live in `<home>/pictures/`.
import { join } from 'node:path'
import type { PartPlugin } from '../part/plugin'
import type { RuntimePart } from '../part/runtime-part'
import { picturesSection, type PicturesConfig } from './config'
import { DayCounts } from './day-counts'
import { drawTool } from './draw-tool'

export interface PicturesPart extends RuntimePart {
  readonly counts: DayCounts
}

export const picturesPart: PartPlugin<PicturesConfig, PicturesPart> = {
  name: 'pictures',
  section: picturesSection,
  create(scope) {
    const { config, view, calls, clock, logger } = scope
    if (!config.model) return undefined
    const counts = new DayCounts({ dir: join(view.home, 'pictures'), zone: view.timezone, clock, logger })
    const draw = drawTool({ config, view, calls, counts })
    return {
      name: 'pictures',
      counts,
      tools: () => [['draw', draw]],
      stop: () => counts.settled(),
    }
  },
}

// The parts a runtime is made of, in order (docs/architecture.md "Parts"): a new capability is a
// folder with a PartPlugin and one line here. The order is the prompt's and the opening note's;
// a part may look up in `create` only those listed before it (memory reads who wrote where).
import { memoryPart } from '../memory/part'
import { peoplePart } from '../people/part'
import { presencePart } from '../presence/part'
import { recallPart } from '../recall/part'
import { initiativePart } from '../initiative/part'
import { stickersPart } from '../stickers/part'
import { voicePart } from '../voice/part'
import { actsPart } from '../acts/part'
import { schedulesPart } from '../schedules/part'
import { skillsPart } from '../skills/part'
import { picturesPart } from '../pictures/part'
import { webPart } from '../web/part'
import { upkeepPart } from '../upkeep/part'

export const PARTS = [
  peoplePart, memoryPart, recallPart, stickersPart, voicePart, initiativePart, presencePart, actsPart, schedulesPart, skillsPart, picturesPart, webPart,
  upkeepPart,
] as const

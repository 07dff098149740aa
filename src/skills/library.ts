// The skills of a profile's folders (SPEC §24): each `<dir>/<name>/SKILL.md` with a name and a
// description in its front matter is a skill named by its folder. One that cannot be used is left
// out with one log line naming its file and why; the rest of the folder still loads.
import { open, readdir, realpath, stat } from 'node:fs/promises'
import { join, relative, isAbsolute, sep } from 'node:path'
import type { Logger } from '../util/logger'
import { readFrontMatter } from './front-matter'

/** a SKILL.md larger than this is left out (the body is read on demand, the list at start) */
export const MAX_SKILL_MD_BYTES = 256 * 1024
/** a skill's name: a URL segment that stays one (OpenClaw's and Anthropic's names fit) */
export const SKILL_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/

export interface Skill {
  name: string
  description: string
  /** the real path of its folder: nothing outside it is read */
  dir: string
  /** the host path of its SKILL.md */
  file: string
}

export interface LeftOutSkill {
  /** the SKILL.md or folder it came from */
  file: string
  why: string
}

export interface SkillSet {
  /** sorted by name; the first folder of `dirs` wins a name */
  skills: Skill[]
  left: LeftOutSkill[]
}

const inside = (root: string, path: string) => {
  const rel = relative(root, path)
  return rel === '' || (!isAbsolute(rel) && !rel.split(sep).includes('..'))
}

/** Reads every folder of `dirs`; never throws. */
export async function loadSkills(dirs: readonly string[], logger: Logger): Promise<SkillSet> {
  const byName = new Map<string, Skill>()
  const left: LeftOutSkill[] = []
  const leave = (file: string, why: string) => {
    left.push({ file, why })
    logger.warn('skill %s left out: %s', file, why)
  }
  for (const dir of dirs) {
    let names: string[]
    try {
      names = (await readdir(dir, { withFileTypes: true })).filter(e => e.isDirectory() || e.isSymbolicLink()).map(e => e.name)
    } catch (e) {
      leave(dir, `the folder cannot be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`)
      continue
    }
    for (const folder of names) {
      const got = await readSkill(join(dir, folder), folder)
      if ('why' in got) {
        if (got.why) leave(got.file, got.why)
        continue
      }
      const first = byName.get(got.name)
      if (first) leave(got.file, `a skill named ${got.name} was already loaded from ${first.file}`)
      else byName.set(got.name, got)
    }
  }
  const skills = [...byName.values()].sort((a, b) => a.name < b.name ? -1 : a.name > b.name ? 1 : 0)
  return { skills, left }
}

/** why '' : not a skill folder at all (a plain file's link, say), left out silently */
async function readSkill(folder: string, name: string): Promise<Skill | LeftOutSkill> {
  const file = join(folder, 'SKILL.md')
  let dir: string
  try {
    if (!(await stat(folder)).isDirectory()) return { file: folder, why: '' }
    dir = await realpath(folder)
  } catch {
    return { file: folder, why: 'its folder is a link that leads nowhere' }
  }
  if (!SKILL_NAME.test(name)) return { file: folder, why: `the folder name ${JSON.stringify(name)} is not a skill name (letters, digits, . _ -)` }
  let text: string
  try {
    const real = await realpath(file)
    if (!inside(dir, real)) return { file, why: 'SKILL.md is a link out of its folder' }
    text = await readBounded(real)
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code
    return { file, why: code === 'ENOENT' ? 'no SKILL.md' : e instanceof Refused ? e.message : `SKILL.md cannot be read (${code ?? (e as Error).message})` }
  }
  const fm = readFrontMatter(text)
  if ('error' in fm) return { file, why: fm.error }
  const { name: declared, description } = fm.fields
  if (!declared?.trim()) return { file, why: 'the front matter has no name' }
  if (!description?.trim()) return { file, why: 'the front matter has no description' }
  // the skill is named by its folder; a declared name that is no name at all ('../x') is refused
  if (!SKILL_NAME.test(declared.trim())) return { file, why: `its name ${JSON.stringify(declared.slice(0, 80))} is not a skill name` }
  return { name, description: description.trim(), dir, file }
}

class Refused extends Error {}

/** The file's text, refusing past MAX_SKILL_MD_BYTES without reading the rest. */
async function readBounded(path: string): Promise<string> {
  const fh = await open(path, 'r')
  try {
    const st = await fh.stat()
    if (!st.isFile()) throw new Refused('SKILL.md is not a regular file')
    if (st.size > MAX_SKILL_MD_BYTES) throw new Refused(`SKILL.md is ${st.size} bytes; the limit is ${MAX_SKILL_MD_BYTES}`)
    const buf = Buffer.alloc(MAX_SKILL_MD_BYTES + 1)
    const { bytesRead } = await fh.read(buf, 0, buf.length, 0)
    if (bytesRead > MAX_SKILL_MD_BYTES) throw new Refused(`SKILL.md is over ${MAX_SKILL_MD_BYTES} bytes; the limit is ${MAX_SKILL_MD_BYTES}`)
    return buf.subarray(0, bytesRead).toString('utf8')
  } finally {
    await fh.close()
  }
}

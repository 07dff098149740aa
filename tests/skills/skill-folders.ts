// Skill folders for the skills specs: `<root>/<name>/SKILL.md` in the Agent Skills format
// (front matter, then the body), with files beside it.
import { mkdir, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'

/** Writes `<root>/<folder>/SKILL.md` and `files` beside it (paths relative to the skill's folder). */
export async function writeSkill(root: string, folder: string, o: { name?: string; description?: string; body?: string; raw?: string; files?: Record<string, string> } = {}) {
  const dir = join(root, folder)
  await mkdir(dir, { recursive: true })
  const front = [o.name !== undefined ? `name: ${o.name}` : '', o.description !== undefined ? `description: ${o.description}` : ''].filter(Boolean)
  await writeFile(join(dir, 'SKILL.md'), o.raw ?? `---\n${front.join('\n')}\n---\n\n${o.body ?? `# ${folder}\n\nSee [notes](notes.txt).\n`}`)
  for (const [rel, text] of Object.entries(o.files ?? {})) {
    await mkdir(dirname(join(dir, rel)), { recursive: true })
    await writeFile(join(dir, rel), text)
  }
  return dir
}

/** `n` skills named skill-00 … with descriptions of ordinary length (about 90 characters). */
export async function writeManySkills(root: string, n: number) {
  for (let i = 0; i < n; i++) {
    const name = `skill-${String(i).padStart(2, '0')}`
    await writeSkill(root, name, { name, description: `Use when a member asks for task number ${i}: gathers what it needs, then answers in one short message.` })
  }
}

// Which asset a source already is (SPEC §5.4): `index.jsonl` in the asset folder, one line per
// registration, appended once its sidecar exists, read once per store.
import { appendFile, readFile } from 'node:fs/promises'
import { join } from 'node:path'

export class AssetIndex {
  private map?: Promise<Map<string, string>>

  constructor(private readonly dir: string) {}

  async get(key: string): Promise<string | undefined> {
    return (await this.load()).get(key)
  }

  async add(key: string, id: string): Promise<void> {
    (await this.load()).set(key, id)
    await appendFile(join(this.dir, 'index.jsonl'), JSON.stringify({ key, id }) + '\n')
  }

  private load(): Promise<Map<string, string>> {
    this.map ??= (async () => {
      const map = new Map<string, string>()
      const text = await readFile(join(this.dir, 'index.jsonl'), 'utf8').catch(() => '')
      for (const line of text.split('\n')) {
        try {
          const { key, id } = JSON.parse(line)
          map.set(key, id)
        } catch {}
      }
      return map
    })()
    return this.map
  }
}

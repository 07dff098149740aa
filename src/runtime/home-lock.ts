// One runtime at a time per home, in this whole process (SPEC §10): a runtime that starts for a
// home waits until the previous one (of this plugin instance, or of an earlier instance that is
// being disposed) has finished its sends and writes. Entries leave the map when released, so it
// holds nothing while no runtime runs.
const holders = new Map<string, Promise<void>>()

/** Resolves, once the home is free, with the function that frees it again. */
export async function acquireHome(home: string): Promise<() => void> {
  const previous = holders.get(home)
  let release!: () => void
  const released = new Promise<void>(resolve => { release = resolve })
  const mine = (previous ?? Promise.resolve()).then(() => released)
  holders.set(home, mine)
  await previous
  let done = false
  return () => {
    if (done) return
    done = true
    release()
    if (holders.get(home) === mine) holders.delete(home)
  }
}

/** Resolves when every home under `dir` held now is free: the runtimes that held them have stopped (a test's teardown). */
export async function homesFree(dir: string): Promise<void> {
  await Promise.all([...holders].filter(([home]) => home.startsWith(dir)).map(([, held]) => held))
}

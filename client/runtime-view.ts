// A runtime-level view of the console page (people, trash, schedules, skills): what one listener
// answers for the runtime picked, loaded again when another is picked; a failure is kept to show.
import { message, send } from '@koishijs/client'
import { ref, watch, type Ref } from 'vue'
import type { RuntimeSummary } from '../src/console-data/types'

export interface RuntimeView<V> {
  view: Ref<V | undefined>
  failed: Ref<string | undefined>
  load(): Promise<void>
  /** Runs an action of the view (a cancel, a restore): a throw is shown with `failedText`; the view is loaded again after. */
  act(action: () => Promise<void>, failedText: (error: string) => string): Promise<void>
}

export function useRuntimeView<V>(runtime: () => RuntimeSummary, event: string): RuntimeView<V> {
  const view = ref<V>() as Ref<V | undefined>
  const failed = ref<string>()
  async function load() {
    try {
      view.value = await (send as any)(event, runtime().profile, runtime().bot)
      failed.value = undefined
    } catch (e) {
      failed.value = e?.message ?? String(e)
    }
  }
  watch(() => `${runtime().profile} ${runtime().bot}`, () => {
    view.value = undefined
    failed.value = undefined
    void load()
  }, { immediate: true })
  async function act(action: () => Promise<void>, failedText: (error: string) => string) {
    try {
      await action()
    } catch (e) {
      message.error(failedText(e?.message ?? String(e)))
    }
    await load()
  }
  return { view, failed, load, act }
}

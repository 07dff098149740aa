// The kotodama page of Koishi's console (SPEC §12): runtimes → conversations → live transcript.
import { Context, icons, useConfig } from '@koishijs/client'
import Page from './page.vue'
import Icon from './icon.vue'
import 'virtual:uno.css'

icons.register('activity:kotodama', Icon)

export default (ctx: Context) => {
  const config = useConfig()
  ctx.page({
    path: '/kotodama',
    name: () => String(config.value.locale ?? '').startsWith('zh') ? '言灵' : 'kotodama',
    icon: 'activity:kotodama',
    order: 450,
    authority: 4,
    component: Page,
  })
}

// The reserved built-in schemes of every runtime.
import { join } from 'node:path'
import type { Runtime } from '../../runtime/runtime'
import type { SchemeHandler } from '../types'
import { assetScheme } from './asset'
import { artifactScheme } from './artifact'
import { localScheme } from './local'

export function builtinSchemes(runtime: Runtime): SchemeHandler[] {
  return [
    assetScheme(runtime.assets),
    artifactScheme(runtime.artifacts),
    localScheme(join(runtime.home, 'local')),
  ]
}

// The reserved built-in schemes of every runtime.
import type { SchemeHandler } from '../types'
import { assetScheme } from './asset'
import type { AssetStore } from './asset-store'
import { artifactScheme } from './artifact'
import type { ArtifactStore } from './artifact-store'
import { localScheme } from './local'

export interface BuiltinSchemeDeps {
  assets: AssetStore
  artifacts: ArtifactStore
  /** the runtime home's local/ folder */
  localRoot: string
  /** makes local:// writable (the runtime's memory, SPEC §13) */
  localWrite?: SchemeHandler['write']
}

export function builtinSchemes({ assets, artifacts, localRoot, localWrite }: BuiltinSchemeDeps): SchemeHandler[] {
  return [
    assetScheme(assets),
    artifactScheme(artifacts),
    localScheme(localRoot, localWrite),
  ]
}

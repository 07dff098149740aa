// The reserved built-in schemes of every runtime.
import type { SchemeHandler } from '../types'
import { assetScheme } from './asset'
import type { AssetStore } from './asset-store'
import { artifactScheme } from './artifact'
import type { ArtifactStore } from './artifact-store'
import { localScheme, type LocalReadGuard } from './local'

export interface BuiltinSchemeDeps {
  assets: AssetStore
  artifacts: ArtifactStore
  /** the runtime home's local/ folder; absent: no local:// (a runtime's memory part serves it) */
  localRoot?: string
  /** makes local:// writable (the runtime's memory, SPEC §13) */
  localWrite?: SchemeHandler['write']
  /** throws for a file this conversation may not read (a private section of a person's note, SPEC §21) */
  localGuard?: LocalReadGuard
}

export function builtinSchemes({ assets, artifacts, localRoot, localWrite, localGuard }: BuiltinSchemeDeps): SchemeHandler[] {
  return [
    assetScheme(assets),
    artifactScheme(artifacts),
    ...localRoot !== undefined ? [localScheme(localRoot, localWrite, localGuard)] : [],
  ]
}

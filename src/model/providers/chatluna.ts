// A ChatLuna model (SPEC §11.1, `models[].chatluna: 'platform/model'`) as an AI SDK language model.
// The bridge is built by issue 30's ChatLuna work; this file holds its seam.
import type { LanguageModelV3 } from '@ai-sdk/provider'

/** What the bridge needs of ChatLuna: the LangChain chat model of 'platform/model' now (undefined while ChatLuna loads or after it dropped the model). */
export type ChatLunaModels = (name: string) => unknown

export function chatLunaModel(name: string, models: ChatLunaModels | undefined): LanguageModelV3 {
  const fail = async (): Promise<never> => {
    throw new Error(models ? `ChatLuna has no model "${name}" now` : `model "${name}" is a ChatLuna model, but ChatLuna is not installed`)
  }
  return { specificationVersion: 'v3', provider: 'chatluna', modelId: name, supportedUrls: {}, doGenerate: fail, doStream: fail }
}

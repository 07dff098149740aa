// Why a voice could not be heard or spoken, in words the model and the owner read (`code` for tests and the log).
export class VoiceError extends Error {
  /** `seconds`: the audio's length, when it was read before the failure */
  constructor(readonly code: string, message: string, readonly seconds?: number) {
    super(message)
  }
}

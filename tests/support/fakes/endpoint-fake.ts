// What every fake API server class offers over its main endpoint (FakeOpenAI's chat route,
// FakeAnthropic's messages, FakeGemini's generate routes): its script, guards, fallback, recorded
// requests and the waiting on them, reset and close. One class, so the three fakes only add their API's own.
import type { Delivery, Endpoint, Guard, RecordedRequest, Scripted, ScriptedServer } from './scripted-server'

export abstract class EndpointFake<R extends Delivery> {
  protected constructor(readonly server: ScriptedServer, protected readonly main: Endpoint<R>) {}

  /** The main endpoint's requests, in order. */
  get requests(): RecordedRequest[] {
    return this.main.requests
  }

  script(...replies: Scripted<R>[]): this {
    this.main.script(...replies)
    return this
  }

  /** Adds a rule the server enforces on every request of the main endpoint. */
  guard(rule: Guard<R>): this {
    this.main.guard(rule)
    return this
  }

  fallback(reply: Scripted<R> | undefined): this {
    this.main.fallback(reply)
    return this
  }

  pending(): number {
    return this.main.pending()
  }

  waitForRequests(n: number, timeoutMs = 5000): Promise<RecordedRequest[]> {
    return this.main.waitForRequests(n, timeoutMs)
  }

  /** Forgets every endpoint's script, guards and requests. */
  reset(): void {
    this.server.reset()
  }

  close(): Promise<void> {
    return this.server.close()
  }
}

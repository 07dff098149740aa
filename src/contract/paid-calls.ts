// Paid host calls inside one codemode program (SPEC §22 "Loops cost nothing"): a vision question,
// an embedding, speech, a picture, a web search each cost money, so one program may make at most
// `codemode.maxPaidCalls` of them. The program's host counts; the tool asks before each request.

/** What a refused paid call returns to the program: `{ name: 'PaidCallLimit', message }`. */
export class PaidCallLimit extends Error {
  override name = 'PaidCallLimit' as const

  constructor(readonly max: number, what: string) {
    super(`this program made its ${max} paid calls (codemode.maxPaidCalls); ${what} was not asked. `
      + 'Return what you have, or ask again in another program after you looked at it')
  }
}

/** The structured error a tool returns for a refused paid call. */
export function paidCallError(e: PaidCallLimit): { name: 'PaidCallLimit'; message: string } {
  return { name: 'PaidCallLimit', message: e.message }
}

/** A program's counter: each call counts one paid request, and throws PaidCallLimit past `max`. */
export function paidCounter(max: number): (what: string) => void {
  let made = 0
  return what => {
    if (made >= max) throw new PaidCallLimit(max, what)
    made++
  }
}

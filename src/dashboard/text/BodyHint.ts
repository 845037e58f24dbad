import * as Option from "effect/Option"
import * as Result from "effect/Result"
import { translationOf } from "../../api/Translation.ts"

/**
 * What the Migration page's body field takes for the vocabulary A operation chosen, in words: a read may
 * leave it empty (everything), a write or a tag change may not, and a watch's is a registration that is
 * translated only (src/dashboard/state/RequestPair.ts says why some requests are not sent from here).
 */
export const bodyHint = (operation: string): string =>
  Result.match(translationOf(operation), {
    onFailure: () => "",
    onSuccess: ({ a }) => {
      if (a.upgrade !== undefined) return "The watch's registration, as JSON: translated here, not sent (a watch is a WebSocket)."
      if (a.body === undefined || Option.isNone(a.body.whenAbsent)) return "Required: what to write or tag, as JSON."
      return a.method === "GET"
        ? "Empty: no body, which a read takes as everything. A read with a body is translated, not sent: a browser sends no body with a GET."
        : "Empty: no body, which a read takes as everything."
    }
  })

import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import type { Caller } from "../../domain/Access.ts"
import type { Vocabulary } from "../../vocabulary/ChannelTagBody.ts"

/**
 * What the observation of a request (ObservedRequests) learns only while the request runs: that the
 * connection was upgraded to the watch socket (the client was answered 101, whatever the handler returns
 * once the socket closes), the vocabulary a request whose path does not tell it spoke (a shared
 * `/channels/tag` body, a watch socket's first registration), and the token it was let in with (authenticated
 * and holding the route's right). Nobody
 * listens unless the request's path needs it (ObservedRequests).
 */
export interface RequestNotes {
  readonly upgraded: () => void
  /** What the observation does then: a watch socket is counted, and its use of a deprecated A logged. */
  readonly spoke: (vocabulary: Vocabulary) => Effect.Effect<void>
  readonly madeWith: (caller: Caller) => void
}

const unheard: RequestNotes = { upgraded: () => {}, spoke: () => Effect.void, madeWith: () => {} }

export const RequestNotes = Context.Reference<RequestNotes>("app/RequestNotes", { defaultValue: () => unheard })

import { Schedule } from "effect"
import { type Client, type ClientWatchEvent, createClient } from "../../src/client/index.ts"
import { nodePlatform } from "../../src/client-node/index.ts"
import type { Vocabulary } from "../../src/vocabulary/ChannelTagBody.ts"

/** Clients of a test gateway, on the client's Node platform (the socket is the global WebSocket, a browser's API). */
export { nodePlatform }

/** Reconnects soon and often: a test waits for events, not for a back-off. */
export const promptly = Schedule.spaced("50 millis")

export const clientOf = (gateway: { readonly baseUrl: string; readonly token: string }, vocabulary: Vocabulary): Client =>
  createClient({ url: gateway.baseUrl, token: gateway.token, vocabulary, platform: nodePlatform, reconnect: promptly })

/** Takes the watch's events until `until` holds of the last one, then leaves it (closing its socket). */
export const eventsUntil = async <A>(events: AsyncIterable<A>, until: (event: A) => boolean): Promise<ReadonlyArray<A>> => {
  const seen: Array<A> = []
  for await (const event of events) {
    seen.push(event)
    if (until(event)) break
  }
  return seen
}

/** Reads events of a watch into `seen` until `enough` holds of all read so far. */
export const readUntil = async <A = ClientWatchEvent>(
  events: AsyncIterator<A>,
  seen: Array<A>,
  enough: (seen: ReadonlyArray<A>) => boolean
): Promise<void> => {
  while (!enough(seen)) {
    const next = await events.next()
    if (next.done === true) throw new Error(`the watch ended after ${JSON.stringify(seen)}`)
    seen.push(next.value)
  }
}

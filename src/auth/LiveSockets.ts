import { Context, Data, Effect, Layer, type Scope } from "effect"

/** Watch sockets one token may hold open at once: a leaked or stolen token cannot exhaust the server. */
export const maxWatchSocketsPerToken = 16

export class TooManySockets extends Data.TaggedError("TooManySockets")<{ readonly limit: number }> {
  override get message(): string {
    return `this token already holds ${this.limit} watch sockets, the most it may`
  }
}

export interface LiveSocketsShape {
  /** Counts one socket for `tokenId` until the scope closes; fails past the cap (answer 429 before the upgrade). */
  readonly acquire: (tokenId: number) => Effect.Effect<void, TooManySockets, Scope.Scope>
  /** Sockets open now for `tokenId`. */
  readonly count: (tokenId: number) => Effect.Effect<number>
}

/** Live watch sockets per token, for the cap of docs/reference.md §9. */
export class LiveSockets extends Context.Service<LiveSockets, LiveSocketsShape>()("app/LiveSockets") {
  static readonly layerWith = (limit: number) =>
    Layer.sync(LiveSockets, () => {
      const open = new Map<number, number>()
      const release = (tokenId: number) =>
        Effect.sync(() => {
          const n = (open.get(tokenId) ?? 1) - 1
          if (n <= 0) open.delete(tokenId)
          else open.set(tokenId, n)
        })
      return LiveSockets.of({
        acquire: (tokenId) =>
          Effect.acquireRelease(
            Effect.suspend(() => {
              const n = open.get(tokenId) ?? 0
              if (n >= limit) return Effect.fail(new TooManySockets({ limit }))
              open.set(tokenId, n + 1)
              return Effect.void
            }),
            () => release(tokenId)
          ),
        count: (tokenId) => Effect.sync(() => open.get(tokenId) ?? 0)
      })
    })
  static readonly layer = LiveSockets.layerWith(maxWatchSocketsPerToken)
}

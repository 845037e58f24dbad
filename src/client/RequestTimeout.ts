import * as Context from "effect/Context"

/**
 * A call's own time-out in ms, over the client's: `Effect.provideService(RequestTimeout, 60_000)` (the
 * Promise face: `{ timeoutMs }`), in milliseconds as the client's other durations are (`retryAfterMs`, `pushMs`).
 */
export const RequestTimeout = Context.Reference<number | undefined>("home-gateway/RequestTimeout", { defaultValue: () => undefined })

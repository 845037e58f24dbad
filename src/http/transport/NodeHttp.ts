import { createRequire } from "node:module"
import type * as Http from "node:http"

/**
 * Node's `http` module, loaded as CommonJS. An ESM import of `node:http` builds Node's ESM facade of it,
 * which reads every export, and reading the lazy `WebSocket` one loads Node's bundled undici: 60–100 ms
 * of CPU on every start of the gateway (measured). @effect/platform-node loads it this way for the same reason.
 */
export const http: typeof Http = createRequire(import.meta.url)("node:http")

import { Effect } from "effect"
import { ok, type Route, route } from "./RouteTable.ts"

/** `GET /health`: answers without a token, so supervisors can probe the process. */
export const healthRoutes: ReadonlyArray<Route> = [route("GET", "/health", Effect.succeed(ok({ status: "ok" })))]

import { Data, Effect } from "effect"
import type { ServerProcess } from "./ChildProcess.ts"

export class NoAdminToken extends Data.TaggedError("NoAdminToken")<{}> {
  override get message(): string {
    return "the gateway printed no admin token (a first run on a fresh data folder prints one before listening)"
  }
}

/** The admin's token that a gateway's first run prints (`admin token: …`) before `listening on`. */
export const adminToken = (gateway: ServerProcess): Effect.Effect<string, NoAdminToken> => {
  const token = gateway.linesBefore.map((line) => /^admin token: (\S+)$/.exec(line)?.[1]).find((t) => t !== undefined)
  return token === undefined ? Effect.fail(new NoAdminToken()) : Effect.succeed(token)
}

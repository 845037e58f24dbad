import * as Data from "effect/Data"

/**
 * A canonical thing a vocabulary has no words for (e.g. a selector that pins the mechanism where the
 * body cannot say it). Only encoders of requests return it: everything the gateway answers is expressible.
 */
export class Unexpressible extends Data.TaggedError("Unexpressible")<{
  readonly reason: string
}> {
  override get message(): string {
    return this.reason
  }
}

import * as Schema from "effect/Schema"
import { Tag } from "./Identifier.ts"
import { ChannelSelector } from "./Selector.ts"
import { Value } from "./Value.ts"

/** Add or remove tags on what the selectors match now (tagging is not live). */
export type TagOperation = "add" | "remove"

/** Tags to add to, or remove from, what `selectors` match. */
export const TagRequest = <S extends Schema.Top>(selector: S) =>
  Schema.Struct({ selectors: Schema.Array(selector), tags: Schema.Array(Tag) })

export interface TagRequest<S> {
  readonly selectors: ReadonlyArray<S>
  readonly tags: ReadonlyArray<Tag>
}

/** One value for every setter its selectors match. A write request is a list of these. */
export const SendTarget = Schema.Struct({ selectors: Schema.Array(ChannelSelector), value: Value })
export type SendTarget = typeof SendTarget.Type

import type { Tag } from "./Identifier.ts"
import type { ChannelSelector } from "./Selector.ts"
import type { Value } from "./Value.ts"

/** Add or remove tags on what the selectors match now (tagging is not live). */
export type TagOperation = "add" | "remove"

export interface TagRequest<S> {
  readonly selectors: ReadonlyArray<S>
  readonly tags: ReadonlyArray<Tag>
}

/** One value for every setter its selectors match. A write request is a list of these. */
export interface SendTarget {
  readonly selectors: ReadonlyArray<ChannelSelector>
  readonly value: Value
}

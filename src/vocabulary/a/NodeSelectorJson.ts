import { Result } from "effect"
import { empty } from "../../domain/Constraint.ts"
import { normalizeTags } from "../../domain/Identifier.ts"
import type { Mechanism } from "../../domain/Mechanism.ts"
import type { ChannelSelector, ServiceSelector } from "../../domain/Selector.ts"
import { forMechanism } from "../../domain/SelectorAlgebra.ts"
import type { InputPath } from "../common/InvalidInput.ts"
import { type Decoded, field, readArrayOf, readNodeId, readObjectWithKeys, readTags } from "../common/JsonInput.ts"
import {
  decodeGetSelector,
  decodeSetSelector,
  encodeGetSelectors,
  encodeSetSelectors
} from "./ChannelSelectorJson.ts"
import { decodeConstraint, encodeConstraint } from "./ConstraintJson.ts"
import type { Unexpressible } from "../common/Unexpressible.ts"

/**
 * NodeSelector (wire.md §4): `id`, `tags`, `inputs: [GetSelector]`, `outputs: [SetSelector]`, all optional.
 * A node matches when, for each listed channel selector, it has at least one matching channel.
 */
const nodeSelectorFields = ["id", "tags", "inputs", "outputs"]

export const decodeNodeSelector = (json: unknown, path: InputPath): Decoded<ServiceSelector> =>
  Result.gen(function*() {
    const object = yield* readObjectWithKeys(json, path, "a NodeSelector", nodeSelectorFields)
    const at = (key: string): InputPath => [...path, key]
    const idJson = field(object, "id")
    const tagsJson = field(object, "tags")
    const inputsJson = field(object, "inputs")
    const outputsJson = field(object, "outputs")
    const id = idJson === undefined ? empty : yield* decodeConstraint(idJson, at("id"), readNodeId)
    const tags = tagsJson === undefined ? [] : yield* readTags(tagsJson, at("tags"))
    const getters = inputsJson === undefined
      ? []
      : yield* readArrayOf(inputsJson, at("inputs"), "an array of GetSelector", decodeGetSelector)
    const setters = outputsJson === undefined
      ? []
      : yield* readArrayOf(outputsJson, at("outputs"), "an array of SetSelector", decodeSetSelector)
    return { id, tags, getters, setters }
  })

export const decodeNodeSelectors = (json: unknown, path: InputPath = []): Decoded<ReadonlyArray<ServiceSelector>> =>
  readArrayOf(json, path, "an array of NodeSelector", decodeNodeSelector)

/**
 * Within a service selector, `getters` are only ever matched against getters: a requirement that leaves
 * the mechanism open means the same as one that names it, and is written as the GetSelector it is.
 */
const within = (mechanism: Mechanism) => (selector: ChannelSelector): ChannelSelector =>
  selector.mechanism._tag === "Empty" ? forMechanism(selector, mechanism) : selector

/** Fails when a channel requirement cannot be written as a GetSelector / SetSelector (see ChannelSelectorJson). */
export const encodeNodeSelector = (selector: ServiceSelector): Result.Result<unknown, Unexpressible> =>
  Result.gen(function*() {
    const inputs = yield* encodeGetSelectors(selector.getters.map(within("getter")))
    const outputs = yield* encodeSetSelectors(selector.setters.map(within("setter")))
    const out: Record<string, unknown> = {}
    const id = encodeConstraint(selector.id, (id) => id)
    if (id !== undefined) out.id = id
    if (selector.tags.length > 0) out.tags = normalizeTags(selector.tags)
    if (inputs.length > 0) out.inputs = inputs
    if (outputs.length > 0) out.outputs = outputs
    return out
  })

export const encodeNodeSelectors = (
  selectors: ReadonlyArray<ServiceSelector>
): Result.Result<ReadonlyArray<unknown>, Unexpressible> => Result.all(selectors.map(encodeNodeSelector))

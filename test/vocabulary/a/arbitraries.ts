import * as fc from "fast-check"
import { codePoint } from "../../arbitraries/codePoint.ts"
import { empty } from "../../../src/domain/Constraint.ts"
import type { ChannelSelector, ServiceSelector } from "../../../src/domain/Selector.ts"
import type { WatchTarget } from "../../../src/domain/Watch.ts"
import {
  channelId,
  channelSelector,
  getterSelector,
  serviceId,
  serviceSelector,
  setterSelector,
  value
} from "../../arbitraries/domain.ts"

/**
 * Vocabulary A's share of the canonical model: what an A request decodes to. A has no `service_tags`,
 * can write `Conflict`, and says a selector's mechanism by where the selector stands.
 */
const withoutServiceTags = (selector: ChannelSelector): ChannelSelector => ({ ...selector, serviceTags: [] })

export const getSelector: fc.Arbitrary<ChannelSelector> = getterSelector({ conflict: true }).map(withoutServiceTags)
export const setSelector: fc.Arbitrary<ChannelSelector> = setterSelector({ conflict: true }).map(withoutServiceTags)
/** A selector of a channel tag body: mechanism left open. */
export const channelTagSelector: fc.Arbitrary<ChannelSelector> = channelSelector({ conflict: true, mechanism: empty })
  .map(withoutServiceTags)

export const nodeSelector: fc.Arbitrary<ServiceSelector> = serviceSelector({ conflict: true }).map((s) => ({
  ...s,
  getters: s.getters.map(withoutServiceTags),
  setters: s.setters.map(withoutServiceTags)
}))

export const sendTarget = fc.record({ selectors: fc.array(setSelector, { maxLength: 3 }), value })

export const watchTarget: fc.Arbitrary<WatchTarget> = fc.record({
  selector: getSelector,
  values: fc.constantFrom({ _tag: "Never" as const }, { _tag: "Always" as const }),
  topology: fc.boolean(),
  initialValues: fc.boolean()
})

/** An error as A writes it, generated as JSON rather than through the encoder. */
export const channelErrorJson: fc.Arbitrary<unknown> = fc.oneof(
  serviceId.map((id) => ({ NoSuchNode: id })),
  channelId.map((id) => ({ NoSuchGet: id })),
  channelId.map((id) => ({ NoSuchSet: id })),
  fc.constant({ TypeError: [] }),
  fc.string({ unit: codePoint, maxLength: 16 }).map((message) => ({ InternalError: message }))
)

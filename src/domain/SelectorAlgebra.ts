import { andConstraint, type Constraint, exactly, same } from "./Constraint.ts"
import { normalizeTags } from "./Identifier.ts"
import { kindEquals } from "./Kind.ts"
import type { Mechanism } from "./Mechanism.ts"
import type { ChannelSelector, ServiceSelector } from "./Selector.ts"

/** `a ∧ b` matches exactly what both `a` and `b` match (docs/reference.md §4): Exactly vs another Exactly is a Conflict, tags unite. */
export const andChannel = (a: ChannelSelector, b: ChannelSelector): ChannelSelector => ({
  id: andConstraint(a.id, b.id, same),
  service: andConstraint(a.service, b.service, same),
  mechanism: andConstraint(a.mechanism, b.mechanism, same),
  kind: andConstraint(a.kind, b.kind, kindEquals),
  tags: normalizeTags([...a.tags, ...b.tags]),
  serviceTags: normalizeTags([...a.serviceTags, ...b.serviceTags])
})

/** `a ∧ b` on services: channel requirements of both must hold, so the lists concatenate. */
export const andService = (a: ServiceSelector, b: ServiceSelector): ServiceSelector => ({
  id: andConstraint(a.id, b.id, same),
  tags: normalizeTags([...a.tags, ...b.tags]),
  getters: [...a.getters, ...b.getters],
  setters: [...a.setters, ...b.setters]
})

/** A selector with a `Conflict` field matches nothing, whatever the home holds. */
export const selectsNothing = (selector: ChannelSelector): boolean =>
  selector.id._tag === "Conflict" || selector.service._tag === "Conflict" ||
  selector.kind._tag === "Conflict" || selector.mechanism._tag === "Conflict"

/** `a` pins what `b` pins, to the same value (`b` unconstrained, or both `Exactly` one value). */
const pinsAsMuch = <A>(a: Constraint<A>, b: Constraint<A>, equals: (x: A, y: A) => boolean): boolean =>
  b._tag === "Empty" || (a._tag === "Exactly" && b._tag === "Exactly" && equals(a.value, b.value))

/**
 * Whether `b` matches every channel `a` matches, on any home (whatever ids, services and tags it holds):
 * `a` matches nothing, or it constrains each field `b` constrains to the same value, and carries at least
 * `b`'s tags. Judged on the selectors alone, so it never depends on what the home holds now (tags move).
 */
export const narrows = (a: ChannelSelector, b: ChannelSelector): boolean =>
  selectsNothing(a) || (
    pinsAsMuch(a.id, b.id, same) && pinsAsMuch(a.service, b.service, same) &&
    pinsAsMuch(a.mechanism, b.mechanism, same) && pinsAsMuch(a.kind, b.kind, kindEquals) &&
    b.tags.every((tag) => a.tags.includes(tag)) && b.serviceTags.every((tag) => a.serviceTags.includes(tag))
  )

/**
 * `selector` restricted to channels of `mechanism`: `andChannel(selector, channelSelector({ mechanism:
 * exactly(mechanism) }))`, the other fields left as they are. A selector of the other mechanism becomes a Conflict.
 */
export const forMechanism = (selector: ChannelSelector, mechanism: Mechanism): ChannelSelector => ({
  ...selector,
  mechanism: andConstraint(selector.mechanism, exactly(mechanism), same)
})

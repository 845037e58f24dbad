import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import type { Tag } from "../domain/Identifier.ts"
import { exactly } from "../domain/Constraint.ts"
import type { FetchResults, SendResults } from "../domain/Outcome.ts"
import type { SendTarget, TagOperation, TagRequest } from "../domain/Request.ts"
import { type Caller, grants, MissingRight, type Right, type TokenScope, scopeChannelSelectors } from "../domain/Access.ts"
import { type ChannelSelector, type ServiceSelector, serviceSelector } from "../domain/Selector.ts"
import { Dispatch } from "./Dispatch.ts"
import type { HomeView } from "./HomeIndex.ts"
import type { ServiceRecord } from "./HomeStore.ts"
import { Registry } from "./Registry.ts"
import { homeFor } from "./ScopedHome.ts"
import { Tags } from "./Tags.ts"

/**
 * The canonical calls made for a caller: each checks the right it needs, then answers on the home as
 * the caller sees it (ScopedHome), so a scoped token reaches only its channels and sees the rest of
 * the home as absent, exactly as if it did not exist. The adapters get the caller's user only when
 * `passUser` says so (vocabulary B passes it, A does not: docs/reference.md §8).
 */

/** Fails with MissingRight unless the caller's token grants `right`. */
export const requireRight = (caller: Caller, right: Right): Effect.Effect<void, MissingRight> =>
  grants(caller.scope, right) ? Effect.void : Effect.fail(new MissingRight({ right }))

export const listServices = (caller: Caller, selectors: ReadonlyArray<ServiceSelector>) =>
  Effect.andThen(requireRight(caller, "read"), Registry.use((r) => r.services(selectors, homeFor(r.index, caller.scope))))

export const listChannels = (caller: Caller, selectors: ReadonlyArray<ChannelSelector>) =>
  Effect.andThen(requireRight(caller, "read"), Registry.use((r) => r.channels(selectors, homeFor(r.index, caller.scope))))

/**
 * Tag edits by a scoped caller never let it (or any other scope) reach a channel it does not reach
 * (docs/auth.md, "Tagging with a scoped token"):
 * - it adds no tag its own scope selects by (`tags` for channel tags, `service_tags` for service tags):
 *   a 403, decided from the request and the scope alone, so its own edits can only narrow its scope,
 *   now and later (tags stay with ids: a tag it added would outlive an administrator's narrowing of
 *   its other selectors, and a service tag also reaches the channels the service gains later);
 * - it tags only channels it reaches, and only services all of whose channels it reaches: a service
 *   tag changes what every channel of the service matches. A service it reaches only in part is left
 *   out, as if it did not match (not in the count). This holds for removals too: tags on what it does
 *   not wholly reach are not its to edit.
 * So any tag edit of a scoped token changes what a selector matches only among channels it reaches.
 */
const addsNoScopeTag = (
  caller: Caller,
  operation: TagOperation,
  tags: ReadonlyArray<Tag>,
  selectedBy: (selector: ChannelSelector) => ReadonlyArray<Tag>
): Effect.Effect<void, MissingRight> => {
  if (operation !== "add" || Option.isNone(caller.scope)) return Effect.void
  const selected = new Set(caller.scope.value.channels.flatMap(selectedBy))
  const tag = tags.find((t) => selected.has(t))
  return tag === undefined ? Effect.void : Effect.fail(new MissingRight({ right: "tag", tag }))
}

/** The services the caller sees matching `selectors` all of whose channels it sees, each as a selector of its id. */
const wholeServicesInScope = (index: HomeView, selectors: ReadonlyArray<ServiceSelector>, scope: TokenScope): ReadonlyArray<ServiceSelector> => {
  const whole = (seen: ServiceRecord) => {
    const all = index.service(seen.id)
    return all !== undefined && all.getters.length === seen.getters.length && all.setters.length === seen.setters.length
  }
  return homeFor(index, Option.some(scope))
    .selectServices(selectors)
    .filter(whole)
    .map((service) => serviceSelector({ id: exactly(service.id) }))
}

export const tagServices = (caller: Caller, operation: TagOperation, request: TagRequest<ServiceSelector>) =>
  Effect.andThen(
    requireRight(caller, "tag"),
    Effect.andThen(
      addsNoScopeTag(caller, operation, request.tags, (selector) => selector.serviceTags),
      Effect.gen(function*() {
        const { index } = yield* Registry
        const selectors = Option.isNone(caller.scope)
          ? request.selectors
          : wholeServicesInScope(index, request.selectors, caller.scope.value)
        return yield* Tags.use((t) => t.tagServices(operation, selectors, request.tags))
      })
    )
  )

export const tagChannels = (caller: Caller, operation: TagOperation, request: TagRequest<ChannelSelector>) =>
  Effect.andThen(
    requireRight(caller, "tag"),
    Effect.andThen(
      addsNoScopeTag(caller, operation, request.tags, (selector) => selector.tags),
      Tags.use((t) => t.tagChannels(operation, scopeChannelSelectors(request.selectors, caller.scope), request.tags))
    )
  )

const contextFor = (caller: Caller, passUser: boolean) => ({ user: passUser ? Option.some(caller.user) : Option.none() })

/**
 * `f` with the registry and dispatch of `core`, called now, if the caller's token grants `right`: the reads
 * and writes of values are made when their program is to run (a route's, RouteProgram), and call the devices
 * as they are made, so that one answered at once is done (an `Exit`). They are on every request's path.
 */
const withCore = <A>(
  core: Context.Context<Registry | Dispatch>,
  caller: Caller,
  right: Right,
  f: (registry: Registry["Service"], dispatch: Dispatch["Service"]) => Effect.Effect<A>
): Effect.Effect<A, MissingRight> =>
  grants(caller.scope, right) ? f(Context.get(core, Registry), Context.get(core, Dispatch)) : Effect.fail(new MissingRight({ right }))

export const fetchValuesNow = (
  core: Context.Context<Registry | Dispatch>,
  caller: Caller,
  selectors: ReadonlyArray<ChannelSelector>,
  passUser: boolean
): Effect.Effect<FetchResults, MissingRight> =>
  withCore(core, caller, "read", (registry, dispatch) =>
    dispatch.fetchNow(selectors, contextFor(caller, passUser), homeFor(registry.index, caller.scope)))

export const sendValuesNow = (
  core: Context.Context<Registry | Dispatch>,
  caller: Caller,
  targets: ReadonlyArray<SendTarget>,
  passUser: boolean
): Effect.Effect<SendResults, MissingRight> =>
  withCore(core, caller, "write", (registry, dispatch) =>
    dispatch.sendNow(targets, contextFor(caller, passUser), homeFor(registry.index, caller.scope)))

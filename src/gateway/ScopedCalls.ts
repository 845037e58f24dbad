import { Context, Effect, Option, Result } from "effect"
import type { ChannelError } from "../domain/ChannelError.ts"
import type { ChannelId, Tag } from "../domain/Identifier.ts"
import { exactly } from "../domain/Constraint.ts"
import { byKey } from "../domain/ListOrder.ts"
import type { Mechanism } from "../domain/Mechanism.ts"
import type { FetchResults, ResultKey, SendResults } from "../domain/Outcome.ts"
import type { SendTarget, TagOperation, TagRequest } from "../domain/Request.ts"
import {
  type Caller,
  type Scope,
  grants,
  MissingRight,
  type Right,
  scopeChannelSelectors,
  scopeService,
  scopeServiceSelectors
} from "../domain/Scope.ts"
import { type ChannelSelector, channelSelector, type ServiceSelector, serviceSelector } from "../domain/Selector.ts"
import { forMechanism, selectsNothing } from "../domain/SelectorAlgebra.ts"
import { Dispatch } from "./Dispatch.ts"
import type { HomeView } from "./HomeIndex.ts"
import { Registry } from "./Registry.ts"
import { Tags } from "./Tags.ts"

/**
 * The canonical calls made for a caller: each checks the right it needs, then ANDs the request's
 * selectors with the caller's scope, so a scoped token reaches only its channels and sees the rest
 * of the home as absent. The adapters get the caller's user only when `passUser` says so
 * (vocabulary B passes it, A does not: docs/reference.md §8).
 */

/** Fails with MissingRight unless the caller's token grants `right`. */
export const requireRight = (caller: Caller, right: Right): Effect.Effect<void, MissingRight> =>
  grants(caller.scope, right) ? Effect.void : Effect.fail(new MissingRight({ right }))

export const listServices = (caller: Caller, selectors: ReadonlyArray<ServiceSelector>) =>
  Effect.andThen(
    requireRight(caller, "read"),
    Registry.use((r) => r.services(scopeServiceSelectors(selectors, caller.scope))).pipe(
      Effect.map((services) => services.map((service) => scopeService(service, caller.scope)))
    )
  )

export const listChannels = (caller: Caller, selectors: ReadonlyArray<ChannelSelector>) =>
  Effect.andThen(requireRight(caller, "read"), Registry.use((r) => r.channels(scopeChannelSelectors(selectors, caller.scope))))

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

/** The services matching `selectors` all of whose channels `scope` reaches, each as a selector of its id. */
const wholeServicesInScope = (index: HomeView, selectors: ReadonlyArray<ServiceSelector>, scope: Scope): ReadonlyArray<ServiceSelector> => {
  const reached = (id: ChannelId) => {
    const channel = index.channel(id)
    return channel !== undefined && scope.channels.some((selector) => index.channelMatches(selector, channel))
  }
  return index
    .selectServices(scopeServiceSelectors(selectors, Option.some(scope)))
    .filter((service) => service.getters.every(reached) && service.setters.every(reached))
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

/**
 * For a scoped caller, an id or service outside the scope is absent, like one that does not exist: a
 * selector naming one answers NoSuchGetter / NoSuchSetter / NoSuchService, as it would on a home that
 * held only the scope. (Dispatch already answers so for what exists nowhere.)
 */
const outOfScope = (
  index: HomeView,
  mechanism: Mechanism,
  selectors: ReadonlyArray<ChannelSelector>,
  scope: Option.Option<Scope>
): ReadonlyMap<ResultKey, ChannelError> => {
  const missing = new Map<ResultKey, ChannelError>()
  if (Option.isNone(scope)) return missing
  for (const selector of selectors.map((s) => forMechanism(s, mechanism))) {
    if (selectsNothing(selector)) continue
    if (selector.id._tag === "Exactly") {
      const id = selector.id.value
      const reachable = scopeChannelSelectors([channelSelector({ id: exactly(id), mechanism: exactly(mechanism) })], scope)
      if (index.selectChannels(reachable).length === 0) {
        missing.set(id, mechanism === "getter" ? { _tag: "NoSuchGetter", id } : { _tag: "NoSuchSetter", id })
      }
    }
    if (selector.service._tag === "Exactly") {
      const id = selector.service.value
      if (index.selectServices(scopeServiceSelectors([serviceSelector({ id: exactly(id) })], scope)).length === 0) {
        missing.set(id, { _tag: "NoSuchService", id })
      }
    }
  }
  return missing
}

const namesNothing = (error: ChannelError): boolean =>
  error._tag === "NoSuchGetter" || error._tag === "NoSuchSetter" || error._tag === "NoSuchService"

/**
 * A scoped caller's results: Dispatch's "no such" errors came from the ANDed selectors, whose ids may be
 * the scope's rather than the request's, so they are replaced by `missing`, worked out from the request
 * against the scope. Still sorted by key. An unscoped caller's results are Dispatch's as they are.
 */
const withMissing = <A>(
  results: ReadonlyArray<{ readonly key: ResultKey; readonly result: Result.Result<A, ChannelError> }>,
  missing: ReadonlyMap<ResultKey, ChannelError>,
  scope: Option.Option<Scope>
) => {
  if (Option.isNone(scope)) return results
  const merged = new Map(
    results.filter((r) => !(Result.isFailure(r.result) && namesNothing(r.result.failure))).map((r) => [r.key, r.result] as const)
  )
  for (const [key, error] of missing) if (!merged.has(key)) merged.set(key, Result.fail(error))
  return [...merged].map(([key, result]) => ({ key, result })).sort(byKey)
}

const contextFor = (caller: Caller, passUser: boolean) => ({ user: passUser ? Option.some(caller.user) : Option.none() })

/** The registry and dispatch, in one look at the context: reads and writes are on every request's path. */
const withCore = <A, E>(f: (registry: Registry["Service"], dispatch: Dispatch["Service"]) => Effect.Effect<A, E>) =>
  Effect.contextWith((context: Context.Context<Registry | Dispatch>) => f(Context.get(context, Registry), Context.get(context, Dispatch)))

export const fetchValues = (
  caller: Caller,
  selectors: ReadonlyArray<ChannelSelector>,
  passUser: boolean
): Effect.Effect<FetchResults, MissingRight, Dispatch | Registry> =>
  Effect.andThen(
    requireRight(caller, "read"),
    withCore((registry, dispatch) => {
      const missing = outOfScope(registry.index, "getter", selectors, caller.scope)
      return Effect.map(
        dispatch.fetch(scopeChannelSelectors(selectors, caller.scope), contextFor(caller, passUser)),
        (results) => withMissing(results, missing, caller.scope)
      )
    })
  )

export const sendValues = (
  caller: Caller,
  targets: ReadonlyArray<SendTarget>,
  passUser: boolean
): Effect.Effect<SendResults, MissingRight, Dispatch | Registry> =>
  Effect.andThen(
    requireRight(caller, "write"),
    withCore((registry, dispatch) => {
      const missing = outOfScope(registry.index, "setter", targets.flatMap((t) => t.selectors), caller.scope)
      const scoped = targets.map((target) => ({ ...target, selectors: scopeChannelSelectors(target.selectors, caller.scope) }))
      return Effect.map(dispatch.send(scoped, contextFor(caller, passUser)), (results) => withMissing(results, missing, caller.scope))
    })
  )

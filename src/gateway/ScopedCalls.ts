import { Effect, Option } from "effect"
import type { FetchResults, SendResults } from "../domain/Outcome.ts"
import type { SendTarget, TagOperation, TagRequest } from "../domain/Request.ts"
import {
  type Caller,
  grants,
  MissingRight,
  type Right,
  scopeChannelSelectors,
  scopeService,
  scopeServiceSelectors
} from "../domain/Scope.ts"
import type { ChannelSelector, ServiceSelector } from "../domain/Selector.ts"
import { Dispatch } from "./Dispatch.ts"
import { Registry } from "./Registry.ts"
import { Tags } from "./Tags.ts"

/**
 * The canonical calls made for a caller: each checks the right it needs, then ANDs the request's
 * selectors with the caller's scope, so a scoped token reaches only its channels and sees the rest
 * of the home as absent. The adapters get the caller's user only when `passUser` says so
 * (vocabulary B passes it, A does not: wire.md §8).
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

export const tagServices = (caller: Caller, operation: TagOperation, request: TagRequest<ServiceSelector>) =>
  Effect.andThen(
    requireRight(caller, "tag"),
    Tags.use((t) => t.tagServices(operation, scopeServiceSelectors(request.selectors, caller.scope), request.tags))
  )

export const tagChannels = (caller: Caller, operation: TagOperation, request: TagRequest<ChannelSelector>) =>
  Effect.andThen(
    requireRight(caller, "tag"),
    Tags.use((t) => t.tagChannels(operation, scopeChannelSelectors(request.selectors, caller.scope), request.tags))
  )

const contextFor = (caller: Caller, passUser: boolean) => ({ user: passUser ? Option.some(caller.user) : Option.none() })

export const fetchValues = (
  caller: Caller,
  selectors: ReadonlyArray<ChannelSelector>,
  passUser: boolean
): Effect.Effect<FetchResults, MissingRight, Dispatch> =>
  Effect.andThen(
    requireRight(caller, "read"),
    Dispatch.use((d) => d.fetch(scopeChannelSelectors(selectors, caller.scope), contextFor(caller, passUser)))
  )

export const sendValues = (
  caller: Caller,
  targets: ReadonlyArray<SendTarget>,
  passUser: boolean
): Effect.Effect<SendResults, MissingRight, Dispatch> =>
  Effect.andThen(
    requireRight(caller, "write"),
    Dispatch.use((d) =>
      d.send(
        targets.map((target) => ({ ...target, selectors: scopeChannelSelectors(target.selectors, caller.scope) })),
        contextFor(caller, passUser)
      )
    )
  )

import * as Effect from "effect/Effect"
import { CurrentCaller } from "../../auth/CurrentCaller.ts"
import type { SendTarget, TagOperation, TagRequest } from "../../domain/Request.ts"
import type { Caller, MissingRight } from "../../domain/Access.ts"
import type { ChannelSelector, ServiceSelector } from "../../domain/Selector.ts"
import * as Scoped from "../../gateway/ScopedCalls.ts"
import { Forbidden } from "../routing/HttpError.ts"
import { checkSelectors, checkTags } from "../body/RequestLimits.ts"
import { withinLimits } from "../body/RequestBody.ts"

/**
 * The canonical calls the routes of both vocabularies make, for the caller the authentication step
 * put in the context, with the per-request limits checked first. The scope is applied by the gateway
 * (`ScopedCalls`); a missing right is a 403. Store failures are bugs or a broken disk, not the
 * client's fault: they become 500s.
 */

/** Whether fetch and send pass the caller's user to the adapters: B does, A does not (docs/reference.md §8). */
export interface UserPassing {
  readonly passUser: boolean
}

/** Vocabulary A passes no user to the adapters (docs/reference.md §8). */
export const anonymous: UserPassing = { passUser: false }

/** Vocabulary B passes the authenticated user to the adapters. */
export const authenticatedUser: UserPassing = { passUser: true }

const forbidden = (error: MissingRight) => new Forbidden({ message: error.message })

const asCaller = <A, R>(call: (caller: Caller) => Effect.Effect<A, MissingRight, R>) =>
  CurrentCaller.use((caller) => Effect.mapError(call(caller), forbidden))

export const listServices = (selectors: ReadonlyArray<ServiceSelector>) =>
  Effect.andThen(withinLimits(checkSelectors(selectors)), asCaller((c) => Scoped.listServices(c, selectors)))

export const listChannels = (selectors: ReadonlyArray<ChannelSelector>) =>
  Effect.andThen(withinLimits(checkSelectors(selectors)), asCaller((c) => Scoped.listChannels(c, selectors)))

export const tagServices = (operation: TagOperation, request: TagRequest<ServiceSelector>) =>
  Effect.andThen(
    withinLimits(checkSelectors(request.selectors), checkTags(request.tags)),
    asCaller((c) => Effect.catchTag(Scoped.tagServices(c, operation, request), "StoreError", Effect.die))
  )

export const tagChannels = (operation: TagOperation, request: TagRequest<ChannelSelector>) =>
  Effect.andThen(
    withinLimits(checkSelectors(request.selectors), checkTags(request.tags)),
    asCaller((c) => Effect.catchTag(Scoped.tagChannels(c, operation, request), "StoreError", Effect.die))
  )

export const fetchValues = (selectors: ReadonlyArray<ChannelSelector>, passing: UserPassing) =>
  Effect.andThen(withinLimits(checkSelectors(selectors)), asCaller((c) => Scoped.fetchValues(c, selectors, passing.passUser)))

export const sendValues = (targets: ReadonlyArray<SendTarget>, passing: UserPassing) =>
  Effect.andThen(
    withinLimits(checkSelectors(targets.flatMap((t) => t.selectors))),
    asCaller((c) => Scoped.sendValues(c, targets, passing.passUser))
  )

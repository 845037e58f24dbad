import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import { CurrentCaller } from "../../auth/CurrentCaller.ts"
import type { SendTarget, TagOperation, TagRequest } from "../../domain/Request.ts"
import type { Caller, MissingRight } from "../../domain/Access.ts"
import type { ChannelSelector, ServiceSelector } from "../../domain/Selector.ts"
import type { Dispatch } from "../../gateway/Dispatch.ts"
import type { Registry } from "../../gateway/Registry.ts"
import * as Scoped from "../../gateway/ScopedCalls.ts"
import { type BadRequest, Forbidden } from "../routing/HttpError.ts"
import { checkSelectors, checkTags } from "../body/RequestLimits.ts"

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

/**
 * `call` for the caller, unless the request is over a limit (`problems`, checked before anything else).
 * Plain code around the call: a read or a write of values takes this path every time.
 */
const asCaller = <A, R>(
  problems: BadRequest | undefined,
  call: (caller: Caller) => Effect.Effect<A, MissingRight, R>
): Effect.Effect<A, BadRequest | Forbidden, R | CurrentCaller> =>
  problems !== undefined ? Effect.fail(problems) : CurrentCaller.use((caller) => Effect.mapError(call(caller), forbidden))

export const listServices = (selectors: ReadonlyArray<ServiceSelector>) =>
  asCaller(checkSelectors(selectors), (c) => Scoped.listServices(c, selectors))

export const listChannels = (selectors: ReadonlyArray<ChannelSelector>) =>
  asCaller(checkSelectors(selectors), (c) => Scoped.listChannels(c, selectors))

export const tagServices = (operation: TagOperation, request: TagRequest<ServiceSelector>) =>
  asCaller(
    checkSelectors(request.selectors) ?? checkTags(request.tags),
    (c) => Effect.catchTag(Scoped.tagServices(c, operation, request), "StoreError", Effect.die)
  )

export const tagChannels = (operation: TagOperation, request: TagRequest<ChannelSelector>) =>
  asCaller(
    checkSelectors(request.selectors) ?? checkTags(request.tags),
    (c) => Effect.catchTag(Scoped.tagChannels(c, operation, request), "StoreError", Effect.die)
  )

/** What a read or a write of values takes from its request's context: the caller, and the core's services. */
export type ValueCallNeeds = CurrentCaller | Registry | Dispatch

/**
 * `call` for the caller of `context`, made now, unless the request is over a limit: a read or a write of
 * values is made when its route's program is to run (RouteProgram), and is done when every device answered
 * at once, so that it needs no fiber.
 */
const nowAsCaller = <A>(
  problems: BadRequest | undefined,
  context: Context.Context<ValueCallNeeds>,
  call: (core: Context.Context<Registry | Dispatch>, caller: Caller) => Effect.Effect<A, MissingRight>
): Effect.Effect<A, BadRequest | Forbidden> =>
  problems !== undefined ? Effect.fail(problems) : Effect.mapErrorEager(call(context, Context.get(context, CurrentCaller)), forbidden)

export const fetchValues = (selectors: ReadonlyArray<ChannelSelector>, passing: UserPassing, context: Context.Context<ValueCallNeeds>) =>
  nowAsCaller(checkSelectors(selectors), context, (core, c) => Scoped.fetchValuesNow(core, c, selectors, passing.passUser))

/** The selectors of every target: one target's own, without a copy (nearly every write). */
const selectorsOf = (targets: ReadonlyArray<SendTarget>): ReadonlyArray<ChannelSelector> => {
  const [only] = targets
  return targets.length === 1 && only !== undefined ? only.selectors : targets.flatMap((t) => t.selectors)
}

export const sendValues = (targets: ReadonlyArray<SendTarget>, passing: UserPassing, context: Context.Context<ValueCallNeeds>) =>
  nowAsCaller(
    checkSelectors(selectorsOf(targets)),
    context,
    (core, c) => Scoped.sendValuesNow(core, c, targets, passing.passUser)
  )

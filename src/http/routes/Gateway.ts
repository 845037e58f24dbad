import { Effect, Option } from "effect"
import type { CallContext } from "../../adapters/Adapter.ts"
import type { ChannelSelector, ServiceSelector } from "../../domain/Selector.ts"
import type { SendTarget, TagOperation, TagRequest } from "../../domain/Request.ts"
import { Dispatch } from "../../gateway/Dispatch.ts"
import { Registry } from "../../gateway/Registry.ts"
import { Tags } from "../../gateway/Tags.ts"
import { checkSelectors, checkTags } from "../RequestLimits.ts"
import { withinLimits } from "../RequestBody.ts"

/**
 * The canonical calls the routes of both vocabularies make, with the per-request limits checked
 * first. Database failures are bugs or a broken disk, not the client's fault: they become 500s.
 */
export const listServices = (selectors: ReadonlyArray<ServiceSelector>) =>
  Effect.andThen(withinLimits(checkSelectors(selectors)), Registry.use((r) => r.services(selectors)))

export const listChannels = (selectors: ReadonlyArray<ChannelSelector>) =>
  Effect.andThen(withinLimits(checkSelectors(selectors)), Registry.use((r) => r.channels(selectors)))

export const tagServices = (operation: TagOperation, request: TagRequest<ServiceSelector>) =>
  Effect.andThen(
    withinLimits(checkSelectors(request.selectors), checkTags(request.tags)),
    Tags.use((t) => Effect.orDie(t.tagServices(operation, request.selectors, request.tags)))
  )

export const tagChannels = (operation: TagOperation, request: TagRequest<ChannelSelector>) =>
  Effect.andThen(
    withinLimits(checkSelectors(request.selectors), checkTags(request.tags)),
    Tags.use((t) => Effect.orDie(t.tagChannels(operation, request.selectors, request.tags)))
  )

export const fetchValues = (selectors: ReadonlyArray<ChannelSelector>, context: CallContext) =>
  Effect.andThen(withinLimits(checkSelectors(selectors)), Dispatch.use((d) => d.fetch(selectors, context)))

export const sendValues = (targets: ReadonlyArray<SendTarget>, context: CallContext) =>
  Effect.andThen(
    withinLimits(checkSelectors(targets.flatMap((t) => t.selectors))),
    Dispatch.use((d) => d.send(targets, context))
  )

/** Vocabulary A passes no user to the adapters (wire.md §8). */
export const anonymous: CallContext = { user: Option.none() }


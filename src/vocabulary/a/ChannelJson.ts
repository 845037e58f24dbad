import { Result } from "effect"
import type { Channel } from "../../domain/Channel.ts"
import { normalizeTags } from "../../domain/Identifier.ts"
import type { InputPath } from "../common/InvalidInput.ts"
import {
  type Decoded,
  invalid,
  readArrayOf,
  readChannelId,
  readNodeId,
  readObjectWithKeys,
  readRequired,
  readSingleKey,
  readTags
} from "../common/JsonInput.ts"
import { byId } from "../../domain/ListOrder.ts"
import { decodeTimestampOrNull, encodeTimestampOrNull } from "../common/TimestampJson.ts"
import { decodeKind, encodeKind } from "./KindJson.ts"

/**
 * A channel as vocabulary A shows it (wire.md §5): `{"id", "node", "tags", "last_seen", "mechanism"}`,
 * the mechanism `{"Get": {"kind", "updated"}}` or `{"Set": {"kind", "push": [ms], "updated"}}`.
 */

/**
 * What A says of a channel: everything but its adapter, which A does not show. A getter's `pushMs` is
 * always 0 here, since A's `Get` has no `push`.
 */
export type ChannelInA = Omit<Channel, "adapter">

/** The A view of a domain channel: `decodeChannel(encodeChannel(c)) = channelInA(c)`. */
export const channelInA = (channel: ChannelInA): ChannelInA => ({
  id: channel.id,
  service: channel.service,
  mechanism: channel.mechanism,
  kind: channel.kind,
  tags: normalizeTags(channel.tags),
  updated: channel.updated,
  lastSeen: channel.lastSeen,
  pushMs: channel.mechanism === "getter" ? 0 : channel.pushMs
})

const channelFields = ["id", "node", "tags", "last_seen", "mechanism"]
const getFields = ["kind", "updated"]
const setFields = ["kind", "push", "updated"]

/** `push` holds exactly one integer >= 0: the least interval, in ms, at which the device accepts values. */
const readPush = (json: unknown, path: InputPath): Decoded<number> => {
  if (!Array.isArray(json) || json.length !== 1) return invalid(path, "expected [ms]: an array holding one integer")
  const [ms]: ReadonlyArray<unknown> = json
  return typeof ms === "number" && Number.isSafeInteger(ms) && ms >= 0
    ? Result.succeed(ms + 0)
    : invalid([...path, 0], "expected an integer number of milliseconds >= 0")
}

type MechanismInA = Pick<Channel, "mechanism" | "kind" | "updated" | "pushMs">

const decodeMechanism = (json: unknown, path: InputPath): Decoded<MechanismInA> =>
  Result.gen(function*() {
    const [name, payload] = yield* readSingleKey(json, path, `{"Get": …} or {"Set": …}`)
    if (name !== "Get" && name !== "Set") {
      return yield* invalid(path, `unknown mechanism ${JSON.stringify(name)}, expected "Get" or "Set"`)
    }
    const at: InputPath = [...path, name]
    const object = yield* readObjectWithKeys(payload, at, `a ${name} mechanism`, name === "Get" ? getFields : setFields)
    const kind = yield* readRequired(object, "kind", at, decodeKind)
    const updated = yield* readRequired(object, "updated", at, decodeTimestampOrNull)
    if (name === "Get") return { mechanism: "getter", kind, updated, pushMs: 0 } as const
    const pushMs = yield* readRequired(object, "push", at, readPush)
    return { mechanism: "setter", kind, updated, pushMs } as const
  })

export const decodeChannel = (json: unknown, path: InputPath): Decoded<ChannelInA> =>
  Result.gen(function*() {
    const object = yield* readObjectWithKeys(json, path, "a Channel", channelFields)
    const read = <A>(key: string, decode: (json: unknown, path: InputPath) => Decoded<A>) =>
      readRequired(object, key, path, decode)
    const id = yield* read("id", readChannelId)
    const service = yield* read("node", readNodeId)
    const tags = yield* read("tags", readTags)
    const lastSeen = yield* read("last_seen", decodeTimestampOrNull)
    const mechanism = yield* read("mechanism", decodeMechanism)
    return { id, service, tags, lastSeen, ...mechanism }
  })

export const decodeChannels = (json: unknown, path: InputPath = []): Decoded<ReadonlyArray<ChannelInA>> =>
  readArrayOf(json, path, "an array of Channel", decodeChannel)

/** Takes a domain Channel as it is (its adapter is left out) or an A view. */
export const encodeChannel = (channel: ChannelInA): unknown => {
  const kind = encodeKind(channel.kind)
  const updated = encodeTimestampOrNull(channel.updated)
  return {
    id: channel.id,
    node: channel.service,
    tags: normalizeTags(channel.tags),
    last_seen: encodeTimestampOrNull(channel.lastSeen),
    mechanism: channel.mechanism === "getter"
      ? { Get: { kind, updated } }
      : { Set: { kind, push: [channel.pushMs], updated } }
  }
}

/** Lists are sorted by id (wire.md §5), whatever the order given. */
export const sortChannels = <C extends ChannelInA>(channels: ReadonlyArray<C>): ReadonlyArray<C> =>
  [...channels].sort(byId)

export const encodeChannels = (channels: ReadonlyArray<ChannelInA>): unknown => sortChannels(channels).map(encodeChannel)

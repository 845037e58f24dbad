import * as Option from "effect/Option"
import * as Result from "effect/Result"
import type { Config } from "./DiscoveryConfig.ts"
import type { DiscoveryPoint } from "./DiscoveryPoint.ts"
import { boundedText } from "./DeviceText.ts"
import { plainTopicProblem } from "./TopicRules.ts"

/**
 * Where a discovery config may have the gateway publish. A config chooses its topics, and anyone who
 * can publish under the prefix can write one: a command topic aimed at another bridge's requests
 * would let a token scoped to one harmless service command that bridge. So a config is refused when
 * it names a topic MQTT forbids, or a command topic under Zigbee2MQTT's base topic, under the
 * discovery prefix, a `$` topic (the broker's own), or one another device's entity already commands
 * (the first keeps it until its config is removed). docs/adapters/mqtt.md, "What is refused".
 */

/** A config key naming a topic (Home Assistant's `topic` and `…_topic`); only such plain words are said in the log. */
const topicKey = /^(?:[a-z_]+_)?topic$/

/** Why a config names a topic MQTT forbids (`its state_topic holds a control character`), or `None`. */
export const configTopicProblem = (config: Config): Option.Option<string> => {
  const named: Array<readonly [string, unknown]> = Object.entries(config).filter(([key]) => topicKey.test(key))
  if (Array.isArray(config["availability"])) {
    for (const entry of config["availability"]) {
      if (typeof entry === "object" && entry !== null && "topic" in entry) named.push(["availability topic", entry.topic])
    }
  }
  for (const [key, topic] of named) {
    if (typeof topic !== "string") continue
    const problem = plainTopicProblem(topic)
    if (Option.isSome(problem)) return Option.some(`its ${boundedText(key)} ${problem.value}`)
  }
  return Option.none()
}

/** The topics a config may not command: Zigbee2MQTT's and discovery's own. */
export interface ForeignTopics {
  /** Zigbee2MQTT's base topic (`--mqtt-base-topic`). */
  readonly baseTopic: string
  /** The discovery prefix. */
  readonly prefix: string
}

const isUnder = (topic: string, root: string) => topic === root || topic.startsWith(`${root}/`)

/** Why the gateway will not publish a discovered entity's commands to `topic`, or `None`. */
const commandTopicProblem = (topic: string, foreign: ForeignTopics): Option.Option<string> => {
  const shown = boundedText(topic)
  const problem = plainTopicProblem(topic)
  if (Option.isSome(problem)) return Option.some(`its command topic ${problem.value}`)
  if (topic.startsWith("$")) return Option.some(`its command topic ${shown} is one of the broker's own ($)`)
  if (isUnder(topic, foreign.baseTopic)) return Option.some(`its command topic ${shown} is under Zigbee2MQTT's base topic ${foreign.baseTopic}`)
  if (isUnder(topic, foreign.prefix)) return Option.some(`its command topic ${shown} is under the discovery prefix ${foreign.prefix}`)
  return Option.none()
}

const commandTopicsOf = (points: ReadonlyArray<DiscoveryPoint>): ReadonlyArray<string> => [
  ...new Set(points.flatMap((point) => Option.toArray(Option.map(point.writing, ({ topic }) => topic))))
]

/** The command topics of the discovered entities, each held by one device. */
export const makeCommandTopics = (foreign: ForeignTopics) => {
  /** The device commanding each topic, and its entities (`<component>/<path>`) that do. */
  const holders = new Map<string, { readonly device: string; readonly entities: Set<string> }>()
  const heldBy = new Map<string, ReadonlyArray<string>>()

  /** Lets go of what `entity` commands: its config was removed or replaced. */
  const release = (entity: string) => {
    for (const topic of heldBy.get(entity) ?? []) {
      const holder = holders.get(topic)
      holder?.entities.delete(entity)
      if (holder?.entities.size === 0) holders.delete(topic)
    }
    heldBy.delete(entity)
  }

  /** Takes the command topics of `entity` (of `device`), in place of those it held; or why it may not, holding what it held. */
  const claim = (entity: string, device: string, points: ReadonlyArray<DiscoveryPoint>): Result.Result<void, string> => {
    const topics = commandTopicsOf(points)
    for (const topic of topics) {
      const problem = commandTopicProblem(topic, foreign)
      if (Option.isSome(problem)) return Result.fail(problem.value)
      const holder = holders.get(topic)
      if (holder !== undefined && holder.device !== device && [...holder.entities].some((other) => other !== entity)) {
        return Result.fail(`its command topic ${boundedText(topic)} is already commanded by the device ${holder.device}`)
      }
    }
    release(entity)
    for (const topic of topics) {
      const holder = holders.get(topic) ?? { device, entities: new Set<string>() }
      holder.entities.add(entity)
      holders.set(topic, holder)
    }
    heldBy.set(entity, topics)
    return Result.succeed(undefined)
  }

  return { claim, release }
}

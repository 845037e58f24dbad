import type { ChannelId } from "../domain/Identifier.ts"
import type { WatchRegistration } from "../domain/Watch.ts"
import type { RegistrationAnswer } from "./RegistrationAnswers.ts"
import { WatchedChannels } from "./WatchedChannels.ts"
import type { WatchQueue } from "./WatchQueue.ts"

/** Current values a shared registration answer handed: its channels, at the home's version then; those since let go. */
interface HandedTogether {
  readonly channels: ReadonlySet<ChannelId>
  readonly at: number
  readonly forgotten: Set<ChannelId>
}

/** One live registration: the channels it watches now and what it wants of each. */
export class Watcher {
  readonly interests = new WatchedChannels()
  /** Whether its registration selected many channels (BROAD_WATCHER): it is then not in the hub's index by channel. */
  broad = false
  /**
   * The channels whose current value the watcher was handed, each with the home's version then: a value
   * reported at that version or before (still on its way to the hub) is no newer, and must not follow it.
   * Those of a shared answer are kept together (`together`), not one entry per channel.
   */
  private readonly handedAt = new Map<ChannelId, number>()
  private together: HandedTogether | undefined
  constructor(public registration: WatchRegistration, readonly queue: WatchQueue) {}

  handed(channel: ChannelId, version: number): void {
    this.handedAt.set(channel, version)
  }

  /** Takes on a shared answer's channels and handed values: for a watcher that watches none. */
  adopt(answer: RegistrationAnswer): void {
    this.interests.adopt(answer.interests)
    this.together = answer.handed.size === 0 ? undefined : { channels: answer.handed, at: answer.handedAt, forgotten: new Set() }
  }

  /** Whether a value reported at `version` is no newer than the one handed; forgets the mark once one is. */
  hasNewer(channel: ChannelId, version: number): boolean {
    const together = this.together
    if (together?.channels.has(channel) && !together.forgotten.has(channel)) {
      if (version <= together.at) return true
      together.forgotten.add(channel)
    }
    if (this.handedAt.size === 0) return false
    const at = this.handedAt.get(channel)
    if (at === undefined) return false
    if (version <= at) return true
    this.handedAt.delete(channel)
    return false
  }

  forget(channel: ChannelId): void {
    this.handedAt.delete(channel)
    if (this.together?.channels.has(channel) === true) this.together.forgotten.add(channel)
  }

  /** The channels handed a current value, all at the same version: those of a watcher that registered once, from none. */
  handedChannels(): ReadonlySet<ChannelId> {
    return new Set(this.handedAt.keys())
  }
}

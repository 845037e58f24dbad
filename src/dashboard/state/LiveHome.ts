import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import { useEffect, useRef, useState } from "preact/hooks"
import {
  type ChannelId,
  channelSelector,
  type Client,
  type ClientWatchEvent,
  createClient,
  everyGetter,
  exactly,
  type ServiceId,
  serviceSelector,
  Tag,
  type Value
} from "../../client/index.ts"
import { listDevices } from "../api/Devices.ts"
import type { Device } from "../api/Devices.ts"
import { type GetterChange, gettersShown, showsChange } from "./GetterChanges.ts"
import { failureInWords, sendFailureInWords, sessionEnded } from "../text/Words.ts"

/** The home as the page shows it: its services, each getter's latest value, and a way to send to a setter. */
export interface LiveHome {
  readonly services: ReadonlyArray<Device> | undefined
  readonly values: ReadonlyMap<ChannelId, Value>
  readonly problem: string | undefined
  /** Whether the first screen's values have been read (or waited for long enough): the rest of the home may be drawn. */
  readonly firstValuesRead: boolean
  /** Sends `value` to one setter; answers why it did not take it, in words, or undefined when it did. */
  readonly send: (setter: ChannelId, value: Value) => Promise<string | undefined>
  /** Adds (or removes) `tag` on one service or channel, then reads the services again; answers a refusal in words. */
  readonly tag: (target: TagTarget, tag: string, operation: "add" | "remove") => Promise<string | undefined>
}

/** What a tag is put on: a service, or a channel of either mechanism. */
export type TagTarget = { readonly service: ServiceId } | { readonly channel: ChannelId }

/** How long the watch waits for the first screen's values before it opens anyway: a device may be slow to answer. */
const firstValuesWaitMs = 2_000

/** The getters whose values the page shows first, of the services read. */
export type FirstShown = (services: ReadonlyArray<Device>) => ReadonlyArray<ChannelId>

/**
 * Reads the home in vocabulary B: its services (Devices.ts, read for the page), and every getter's value
 * live from the typed client's watch, asked with its current value first so that nothing shown is stale
 * (docs/dashboard.md). A getter that comes or goes (a device joining, leaving, a home-file edit) has the
 * services read again, once for a burst of such events, unless the last reading shows it already
 * (GetterChanges.ts). A 401 anywhere means the session has ended.
 *
 * On a home of a thousand devices the watch's first values are thousands of events, which take the page
 * seconds to read: the first screen's values are asked for as soon as the services are read, before
 * their cards are drawn, and the watch is opened once they are read, or after `firstValuesWaitMs`
 * should a device be slow to answer (a value read then is shown only if the watch has not shown one
 * already, which is as new or newer). Until then `firstValuesRead` is false, and the page draws no more
 * than the first screen.
 */
export const useLiveHome = (token: string, onExpired: () => void, firstShown: FirstShown): LiveHome => {
  const [services, setServices] = useState<ReadonlyArray<Device> | undefined>(undefined)
  const [values, setValues] = useState<ReadonlyMap<ChannelId, Value>>(new Map())
  const [problem, setProblem] = useState<string | undefined>(undefined)
  const [firstValuesRead, setFirstValuesRead] = useState(false)
  const client = useRef<Client | undefined>(undefined)
  const reread = useRef<() => Promise<unknown>>(() => Promise.resolve())
  useEffect(() => {
    const opened = createClient({ url: location.origin, token, vocabulary: "b" })
    client.current = opened
    let shown = true
    const failed = (error: unknown) => {
      if (!shown) return
      if (sessionEnded(error)) onExpired()
      else setProblem(failureInWords(error))
    }
    // The getters the last reading shows, and the changes seen while a reading was on its way.
    let listed: ReadonlySet<ChannelId> | undefined
    let readings = 0
    let seenWhileReading: Array<GetterChange> = []
    let rereading = false
    /** One more reading, once the burst of events being handled is over. */
    const readAgainSoon = () => {
      if (rereading) return
      rereading = true
      setTimeout(() => {
        rereading = false
        void readServices()
      }, 0)
    }
    /** Reads the services; `beforeShown` is told them before the page draws them. */
    const readServices = (beforeShown?: (services: ReadonlyArray<Device>) => void): Promise<ReadonlyArray<Device>> => {
      readings++
      const done = () => {
        readings--
        const seen = seenWhileReading
        if (readings === 0) seenWhileReading = []
        return seen
      }
      return listDevices(token).then((read) => {
        if (Result.isFailure(read)) {
          done()
          failed(read.failure)
          return []
        }
        listed = gettersShown(read.success)
        beforeShown?.(read.success)
        if (shown) setServices(read.success)
        if (done().some((change) => !showsChange(listed, change))) readAgainSoon()
        return read.success
      })
    }
    reread.current = () => readServices()
    const gettersChanged = (change: GetterChange) => {
      if (readings > 0) seenWhileReading.push(change)
      else if (!showsChange(listed, change)) readAgainSoon()
    }
    let events: AsyncIterator<ClientWatchEvent> | undefined
    // Values are put on screen once a frame: the first values, one event each, come in a burst.
    let valuesToShow = new Map<ChannelId, Value | undefined>()
    let frame: number | undefined
    const showValue = (channel: ChannelId, value: Value | undefined) => {
      valuesToShow.set(channel, value)
      frame ??= requestAnimationFrame(() => {
        const changes = valuesToShow
        valuesToShow = new Map()
        frame = undefined
        setValues((now) => {
          const next = new Map(now)
          for (const [changed, latest] of changes) latest === undefined ? next.delete(changed) : next.set(changed, latest)
          return next
        })
      })
    }
    // The getters the watch has given a value: a value read after it would be older.
    const watched = new Set<ChannelId>()
    /** Reads the current values of `channels` once. */
    const readNow = (channels: ReadonlyArray<ChannelId>): Promise<void> => {
      if (channels.length === 0) return Promise.resolve()
      const asked = new Map<string, ChannelId>(channels.map((channel) => [channel, channel]))
      return opened.fetch(channels.map((channel) => channelSelector({ id: exactly(channel), mechanism: exactly("getter") }))).then((reads) => {
        for (const read of reads) {
          const channel = asked.get(read.key)
          if (channel !== undefined && !watched.has(channel) && read.result._tag === "Success" && read.result.success._tag === "Some") showValue(channel, read.result.success.value)
        }
      }, failed)
    }
    const follow = async (iterator: AsyncIterator<ClientWatchEvent>) => {
      for (let next = await iterator.next(); next.done !== true; next = await iterator.next()) {
        const event = next.value
        if (event._tag === "ValueChanged") {
          watched.add(event.channel)
          showValue(event.channel, event.value)
        }
        // A getter that cannot be watched so (a battery sensor that reports only past thresholds) is read once.
        else if (event._tag === "WatchRefused") void readNow([event.channel])
        else if (event._tag === "ChannelAdded") gettersChanged({ channel: event.channel, added: true })
        else if (event._tag === "ChannelRemoved") {
          showValue(event.channel, undefined)
          gettersChanged({ channel: event.channel, added: false })
        }
      }
    }
    const watch = () => {
      if (!shown || events !== undefined) return
      setFirstValuesRead(true)
      events = opened.watch([{ selector: everyGetter, values: { _tag: "Always" }, topology: true, initialValues: true }])[Symbol.asyncIterator]()
      follow(events).catch(failed)
    }
    let firstValues: Promise<void> = Promise.resolve()
    void readServices((services) => {
      setTimeout(watch, firstValuesWaitMs)
      firstValues = readNow(firstShown(services))
    }).then(() => firstValues).finally(watch)
    return () => {
      shown = false
      if (frame !== undefined) cancelAnimationFrame(frame)
      client.current = undefined
      // Leaving the watch closes its socket; then the client lets its connections go.
      void Promise.resolve(events?.return?.()).finally(() => opened.close())
    }
  }, [token])
  const send = async (setter: ChannelId, value: Value): Promise<string | undefined> => {
    const opened = client.current
    if (opened === undefined) return "the page is closing"
    try {
      const [outcome] = await opened.send([{ selectors: [channelSelector({ id: exactly(setter), mechanism: exactly("setter") })], value }])
      if (outcome === undefined) return "the channel is gone"
      return outcome.result._tag === "Failure" ? sendFailureInWords(outcome.result.failure) : undefined
    } catch (error) {
      if (sessionEnded(error)) onExpired()
      return failureInWords(error)
    }
  }
  const tag = async (target: TagTarget, text: string, operation: "add" | "remove"): Promise<string | undefined> => {
    const opened = client.current
    if (opened === undefined) return "the page is closing"
    // Checked with the model's own schema before anything is sent.
    if (!Schema.is(Tag)(text)) return "a tag is 1 to 256 characters, without control characters"
    const tags = [text]
    try {
      if ("service" in target) {
        const selectors = [serviceSelector({ id: exactly(target.service) })]
        await (operation === "add" ? opened.tagServices(selectors, tags) : opened.untagServices(selectors, tags))
      } else {
        const selectors = [channelSelector({ id: exactly(target.channel) })]
        await (operation === "add" ? opened.tagChannels(selectors, tags) : opened.untagChannels(selectors, tags))
      }
      await reread.current()
      return undefined
    } catch (error) {
      if (sessionEnded(error)) onExpired()
      return failureInWords(error)
    }
  }
  return { services, values, problem, firstValuesRead, send, tag }
}

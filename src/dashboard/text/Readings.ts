import type { ChannelView, Value } from "../../client/index.ts"

/**
 * A getter's value as the people who live in the home read it, knowing its kind: temperatures with
 * their unit, durations as `1 h 12 min`, a time of day as a clock time, a value not known as a dash.
 */

/** What a reading shows while its getter has no value. */
export const unknownReading = "—"

const units: ReadonlyArray<readonly [string, number]> = [["d", 86_400], ["h", 3_600], ["min", 60], ["s", 1]]

/**
 * A duration in its two largest units, rounded to the smaller: `1 h 12 min`, `5 min 30 s`, `45 s`,
 * `2 d 3 h`; under 10 s to a tenth (`2.5 s`), for a latency or a short timer.
 */
export const durationInWords = (seconds: number): string => {
  if (seconds < 10) return `${Math.round(seconds * 10) / 10} s`
  const inUnits = (total: number) => {
    const largest = Math.max(0, units.findIndex(([, size]) => total >= size))
    const [bigName, big] = units[largest] ?? ["s", 1]
    const [smallName, small] = units[largest + 1] ?? [bigName, big]
    return { bigName, big, smallName, small }
  }
  // Rounded to the smaller unit first: 3,599.6 s is 1 h, not 60 min.
  const first = inUnits(seconds)
  const { bigName, big, smallName, small } = inUnits(Math.round(seconds / first.small) * first.small)
  const inSmall = Math.round(seconds / small)
  const whole = Math.floor(inSmall / (big / small))
  const rest = inSmall - whole * (big / small)
  return small === big || rest === 0 ? `${whole} ${bigName}` : `${whole} ${bigName} ${rest} ${smallName}`
}

/** Seconds since midnight in UTC (the clock's time of day: docs/adapters.md) as this browser's clock time. */
export const timeOfDayInWords = (seconds: number, today: Date = new Date()): string => {
  const midnight = Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate())
  return new Date(midnight + seconds * 1000).toLocaleTimeString()
}

const kindName = (kind: ChannelView["kind"]): string => (kind._tag === "Builtin" ? kind.name : kind.kind)

/** A value in words, as its kind means it; undefined (no value yet) as a dash. */
export const readingInWords = (kind: ChannelView["kind"], value: Value | undefined): string => {
  if (value === undefined) return unknownReading
  switch (value._tag) {
    case "Unit":
      return "Yes"
    case "OnOff":
    case "OpenClosed":
    case "DoorLocked":
      return value.state
    case "Duration":
      return kindName(kind) === "CurrentTimeOfDay" ? timeOfDayInWords(value.seconds) : durationInWords(value.seconds)
    case "TimeStamp":
      return new Date(value.epochMillis).toLocaleString()
    case "Temperature":
      return `${Math.round(value.degrees * 10) / 10} °${value.unit}`
    case "Color":
      return `hue ${Math.round(value.h)}°, saturation ${Math.round(value.s * 100)} %, brightness ${Math.round(value.v * 100)} %`
    case "String":
      return value.value === "" ? unknownReading : value.value
    case "Json":
      return JSON.stringify(value.value)
    case "Binary":
      return `${value.mimetype}, ${value.data.length} bytes`
    case "ExtBool":
      return value.value ? "Yes" : "No"
    case "ExtNumeric":
      return String(value.value)
  }
}

/** What a builtin kind reads as, on a card: the name of the reading (an extension's kind is named by itself). */
const builtinReadingNames: Readonly<Record<string, string>> = {
  Ready: "Ready",
  OnOff: "Power",
  OpenClosed: "State",
  DoorLocked: "Lock",
  LightColor: "Colour",
  CurrentTime: "Time",
  CurrentTimeOfDay: "Time of day",
  RemainingTime: "Time left",
  Countdown: "Timer",
  CountEveryInterval: "Counted",
  Thermostat: "Set point",
  ActualTemperature: "Temperature",
  OvenTemperature: "Temperature",
  Username: "User",
  Password: "Password",
  Log: "Message",
  TakeSnapshot: "Snapshot"
}

/** A channel's kind as a card names its reading or its control: `Temperature`, `Set point`, an extension's `Image`. */
export const readingName = (kind: ChannelView["kind"]): string =>
  kind._tag === "Builtin" ? (builtinReadingNames[kind.name] ?? kind.name) : `${kind.kind.charAt(0).toUpperCase()}${kind.kind.slice(1)}`

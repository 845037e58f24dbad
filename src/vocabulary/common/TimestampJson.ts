import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import { Timestamp } from "../../domain/Channel.ts"
import { DOCS } from "./Docs.ts"
import { wireCheck } from "./WireSchema.ts"
import { checked, wireShape } from "./WireShape.ts"

/**
 * Timestamps on the wire (docs/reference.md §2, §5): read as any RFC 3339 date-time with an offset, written in UTC
 * with milliseconds and `+00:00`, e.g. `2026-11-22T06:00:00.000+00:00`.
 *
 * The calendar arithmetic is done here rather than with `Date`, so that every millisecond count the
 * domain holds (any safe integer) can be written and read back: years outside 0000–9999 use the ISO 8601
 * expanded form `±YYYYYY`, which `Date` also reads.
 */
const MS_PER_DAY = 86_400_000

const pattern =
  /^([+-]\d{6}|\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(?:([Zz])|([+-])(\d{2}):(\d{2}))$/

const example = "2026-11-22T06:00:00.000+00:00"

/** Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's `days_from_civil`). */
const daysFromCivil = (year: number, month: number, day: number): number => {
  const y = month <= 2 ? year - 1 : year
  const era = Math.floor(y / 400)
  const yearOfEra = y - era * 400
  const dayOfYear = Math.floor((153 * ((month + 9) % 12) + 2) / 5) + day - 1
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear
  return era * 146_097 + dayOfEra - 719_468
}

/** The inverse of `daysFromCivil`: `[year, month, day]`. */
const civilFromDays = (days: number): readonly [number, number, number] => {
  const z = days + 719_468
  const era = Math.floor(z / 146_097)
  const dayOfEra = z - era * 146_097
  const yearOfEra = Math.floor(
    (dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36_524) - Math.floor(dayOfEra / 146_096)) / 365
  )
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100))
  const mp = Math.floor((5 * dayOfYear + 2) / 153)
  const day = dayOfYear - Math.floor((153 * mp + 2) / 5) + 1
  const month = mp < 10 ? mp + 3 : mp - 9
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
  return [year, month, day]
}

const isLeapYear = (year: number): boolean => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0

const daysInMonth = (year: number, month: number): number =>
  month === 2 ? (isLeapYear(year) ? 29 : 28) : [4, 6, 9, 11].includes(month) ? 30 : 31

const pad = (n: number, width: number): string => String(n).padStart(width, "0")

const formatYear = (year: number): string =>
  year >= 0 && year <= 9999 ? pad(year, 4) : `${year < 0 ? "-" : "+"}${pad(Math.abs(year), 6)}`

/**
 * The texts of timestamps written lately. Answers write the same few timestamps again and again (a
 * channel's `updated` and `last_seen` change far less often than they are read); emptied when full.
 */
const written = new Map<number, string>()
const WRITTEN_KEPT = 4_096

/** `epochMillis` in UTC with milliseconds and `+00:00`. */
export const encodeTimestamp = (epochMillis: Timestamp): string => {
  let text = written.get(epochMillis)
  if (text === undefined) {
    if (written.size >= WRITTEN_KEPT) written.clear()
    text = formatTimestamp(epochMillis)
    written.set(epochMillis, text)
  }
  return text
}

const formatTimestamp = (epochMillis: number): string => {
  const days = Math.floor(epochMillis / MS_PER_DAY)
  const inDay = epochMillis - days * MS_PER_DAY
  const [year, month, day] = civilFromDays(days)
  const hours = Math.floor(inDay / 3_600_000)
  const minutes = Math.floor(inDay / 60_000) % 60
  const seconds = Math.floor(inDay / 1000) % 60
  return `${formatYear(year)}-${pad(month, 2)}-${pad(day, 2)}T${pad(hours, 2)}:${pad(minutes, 2)}:${pad(seconds, 2)}.${
    pad(inDay % 1000, 3)
  }+00:00`
}

/**
 * Reads an RFC 3339 date-time with an offset (`Z`, `+hh:mm`, `-hh:mm`) to milliseconds since the epoch,
 * or says why it cannot. Fractions finer than a millisecond are rounded; a leap second (`:60`) counts as
 * the next second.
 */
const parseTimestamp = (text: string): Result.Result<Timestamp, string> => {
  const parts = pattern.exec(text)
  if (parts === null) return Result.fail(`expected an RFC 3339 timestamp with an offset, such as "${example}"`)
  const [, y, mo, d, h, mi, s, fraction, zulu, sign, oh, om] = parts
  const year = Number(y)
  const month = Number(mo)
  const day = Number(d)
  const hours = Number(h)
  const minutes = Number(mi)
  const seconds = Number(s)
  const offsetHours = Number(oh ?? 0)
  const offsetMinutes = Number(om ?? 0)
  if (
    month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month) ||
    hours > 23 || minutes > 59 || seconds > 60 || offsetHours > 23 || offsetMinutes > 59
  ) {
    return Result.fail(`no such date and time: ${JSON.stringify(text)}`)
  }
  const millis = fraction === undefined ? 0 : Math.round(Number(`0.${fraction}`) * 1000)
  const offset = zulu === undefined ? (sign === "-" ? -1 : 1) * (offsetHours * 60 + offsetMinutes) : 0
  const epochMillis = daysFromCivil(year, month, day) * MS_PER_DAY +
    ((hours * 60 + minutes - offset) * 60 + seconds) * 1000 + millis
  return Number.isSafeInteger(epochMillis)
    ? Result.succeed(epochMillis)
    : Result.fail(`timestamp out of range: ${JSON.stringify(text)}`)
}

// The format is the node's (the document states it as such); the name and the words of messages are the check's.
const timestampWire = Schema.String.annotate({
  description: DOCS ? "RFC 3339 date-time with an offset. Written in UTC with milliseconds and `+00:00`." : "",
  format: "date-time",
  examples: [example]
}).check(
  wireCheck((text: string) => Result.match(parseTimestamp(text), { onSuccess: () => true, onFailure: (message) => message }))
).annotate({ identifier: "Timestamp", expected: `a timestamp such as "${example}"` })

/** A timestamp: an RFC 3339 string on the wire, milliseconds since the epoch in the model. */
export const TimestampJson = wireShape({
  wire: timestampWire,
  read: (text) => checked(parseTimestamp(text)),
  write: encodeTimestamp
}, Timestamp)

/** A timestamp, or `null` for "never" (a channel not yet updated, a device not yet seen). */
export const TimestampOrNullJson = wireShape({
  wire: Schema.NullOr(timestampWire),
  read: (text): Timestamp | null => (text === null ? null : TimestampJson.read(text)),
  write: (epochMillis) => (epochMillis === null ? null : encodeTimestamp(epochMillis))
}, Schema.NullOr(Timestamp))

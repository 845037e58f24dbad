import * as Data from "effect/Data"
import * as Option from "effect/Option"
import * as Result from "effect/Result"
import * as NetAddress from "effect/net/NetAddress"

/**
 * The hops a proxy's relay header lists, the farthest (the client, as far as anyone knows) first: each a
 * canonical IP address, `unknown`, or an obfuscated name (`_hidden`, RFC 7239 §6.3). Ports are read and
 * dropped: a client is its address. Pure.
 */

/** A relay header that cannot be read: which, and why, in words. */
export class MalformedRelay extends Data.TaggedError("MalformedRelay")<{ readonly header: string; readonly reason: string }> {
  override get message(): string {
    return `${this.header} from a trusted proxy: ${this.reason}`
  }
}

/** The hop of a node that does not say where it is. */
export const unknownHop = "unknown"

const token = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/
const quotedString = /^"((?:[^"\\]|\\.)*)"$/s
const obfuscated = /^_[A-Za-z0-9._-]+$/
const port = /^(?:\d{1,5}|_[A-Za-z0-9._-]+)$/

const canonical = (address: NetAddress.IpAddress) => NetAddress.formatIp(NetAddress.toCanonical(address))

/** `nodename [":" node-port]` (RFC 7239 §6): an IPv4 address, a bracketed IPv6 one, `unknown` or an obfuscated name. */
const nodeOf = (node: string): Result.Result<string, string> => {
  const bracketed = /^\[([^\]]*)\](.*)$/s.exec(node)
  if (bracketed === null && node.startsWith("[")) return Result.fail(`${JSON.stringify(node)}: the brackets around an IPv6 address are not closed`)
  const [name, rest] = bracketed !== null
    ? [bracketed[1] ?? "", bracketed[2] ?? ""]
    : [node.split(":", 1)[0] ?? "", node.slice(node.split(":", 1)[0]?.length ?? 0)]
  if (rest !== "" && !(rest.startsWith(":") && port.test(rest.slice(1)))) {
    return Result.fail(`${JSON.stringify(node)}: a port is 1 to 5 digits, after the address and a colon`)
  }
  if (bracketed !== null) {
    return Result.mapBoth(NetAddress.ipv6FromString(name), {
      onSuccess: canonical,
      onFailure: (error) => `${JSON.stringify(node)}: not an IPv6 address in brackets (${error.message})`
    })
  }
  if (name.toLowerCase() === unknownHop) return Result.succeed(unknownHop)
  if (obfuscated.test(name)) return Result.succeed(name)
  return Result.mapBoth(NetAddress.ipv4FromString(name), {
    onSuccess: canonical,
    onFailure: () => `${JSON.stringify(node)}: not an IPv4 address, an IPv6 address in brackets, unknown, nor a name starting with _`
  })
}

/** Splits at `separator` outside quoted strings (none: a quote is left open). */
const splitOutsideQuotes = (text: string, separator: string): Option.Option<Array<string>> => {
  const parts: Array<string> = []
  let start = 0
  let quoted = false
  for (let i = 0; i < text.length; i++) {
    const char = text[i]
    if (quoted) {
      if (char === "\\") i++
      else if (char === "\"") quoted = false
    } else if (char === "\"") quoted = true
    else if (char === separator) {
      parts.push(text.slice(start, i))
      start = i + 1
    }
  }
  if (quoted) return Option.none()
  parts.push(text.slice(start))
  return Option.some(parts)
}

/** A parameter's value: a token, or a quoted string (its escapes undone). */
const parameterValue = (name: string, value: string): Result.Result<string, string> => {
  if (token.test(value)) return Result.succeed(value)
  const quoted = quotedString.exec(value)
  if (quoted !== null) return Result.succeed((quoted[1] ?? "").replace(/\\(.)/gs, "$1"))
  return Result.fail(
    `${name}=${value}: neither a token nor a quoted string (an IPv6 address is quoted and in brackets: for="[2001:db8::1]")`
  )
}

/** One element's `for` (RFC 7239 §4): its node, or `unknown` when the element has none. */
const elementFor = (element: string): Result.Result<string, string> => {
  const seen = new Set<string>()
  let node: Result.Result<string, string> = Result.succeed(unknownHop)
  for (const pair of splitOutsideQuotes(element, ";").pipe(Option.getOrElse(() => [element]))) {
    const trimmed = pair.trim()
    const equals = trimmed.indexOf("=")
    const name = trimmed.slice(0, Math.max(0, equals)).toLowerCase()
    if (equals < 1 || !token.test(name)) return Result.fail(`${JSON.stringify(trimmed)}: expected name=value`)
    if (seen.has(name)) return Result.fail(`${name}= twice in one element`)
    seen.add(name)
    const value = parameterValue(name, trimmed.slice(equals + 1))
    if (Result.isFailure(value)) return value
    if (name === "for") node = nodeOf(value.success)
  }
  return node
}

/** Every element read, or the first reason one cannot be; empty elements are skipped (RFC 9110 §5.6.1). */
const hopsOf = (
  header: string,
  entries: Option.Option<ReadonlyArray<string>>,
  read: (entry: string) => Result.Result<string, string>
): Result.Result<ReadonlyArray<string>, MalformedRelay> => {
  if (Option.isNone(entries)) return Result.fail(new MalformedRelay({ header, reason: "a quoted string is not closed" }))
  const hops: Array<string> = []
  for (const entry of entries.value.map((part) => part.trim()).filter((part) => part !== "")) {
    const hop = read(entry)
    if (Result.isFailure(hop)) return Result.fail(new MalformedRelay({ header, reason: hop.failure }))
    hops.push(hop.success)
  }
  return hops.length === 0 ? Result.fail(new MalformedRelay({ header, reason: "names no hop" })) : Result.succeed(hops)
}

/** `Forwarded` (RFC 7239): the `for` of each element. */
export const forwardedHops = (header: string): Result.Result<ReadonlyArray<string>, MalformedRelay> =>
  hopsOf("Forwarded", splitOutsideQuotes(header, ","), elementFor)

/**
 * `X-Forwarded-For`: addresses separated by commas, as proxies write them (an IPv6 address bare or in
 * brackets, a port after an IPv4 address or the brackets), or `unknown`.
 */
export const xForwardedForHops = (header: string): Result.Result<ReadonlyArray<string>, MalformedRelay> =>
  hopsOf("X-Forwarded-For", Option.some(header.split(",")), (entry) =>
    Result.match(NetAddress.ipFromString(entry), { onSuccess: (address) => Result.succeed(canonical(address)), onFailure: () => nodeOf(entry) }))

import * as fc from "fast-check"
import { Option, Result } from "effect"
import { describe, expect, it } from "vitest"
import { canonicalAddress, clientAddress, type RelayHeaders, trustedProxiesOf } from "../../src/http/routing/ClientAddress.ts"
import { forwardedHops, unknownHop, xForwardedForHops } from "../../src/http/routing/RelayHeaders.ts"

/**
 * `--trust-proxy`'s client address (src/http/routing/ClientAddress.ts, RelayHeaders.ts): relay headers
 * read back as the hops proxies wrote, whatever way RFC 7239 and the de facto X-Forwarded-For let them
 * write each one, and the client found right to left through the trusted proxies only.
 */

const canonical = (address: string) => Option.getOrElse(canonicalAddress(address), () => address)

type Hop =
  | { readonly kind: "v4"; readonly address: string }
  | { readonly kind: "v6"; readonly address: string }
  | { readonly kind: "named"; readonly address: string }

const ipv4 = fc.ipV4().map((address): Hop => ({ kind: "v4", address }))
const hop: fc.Arbitrary<Hop> = fc.oneof(
  ipv4,
  fc.ipV6().map((address): Hop => ({ kind: "v6", address })),
  fc.constantFrom(unknownHop, "_hidden", "_proxy.1-a").map((address): Hop => ({ kind: "named", address }))
)
const expected = (hops: ReadonlyArray<Hop>) => hops.map((one) => canonical(one.address))

const port = fc.option(fc.oneof(fc.integer({ min: 0, max: 65_535 }).map(String), fc.constant("_p1")), { nil: undefined })
const ows = fc.constantFrom("", " ", "  ", "\t")

/** One hop as a `for=` value: quoted when it must be (brackets, a port) and at random otherwise. */
const forValue = (one: Hop) =>
  fc.tuple(port, fc.boolean()).map(([p, quote]) => {
    const node = one.kind === "v6" ? `[${one.address}]` : one.address
    const withPort = p === undefined ? node : `${node}:${p}`
    return quote || withPort !== one.address ? `"${withPort}"` : withPort
  })

/** One element: `for` among other parameters, in any order, the names in any case. */
const forwardedElement = (one: Hop) =>
  fc.tuple(forValue(one), fc.subarray(["proto=https", "by=\"[::1]:80\"", "host=\"home.example.org\""]), fc.nat(), fc.constantFrom("for", "FOR", "For"))
    .map(([value, others, at, name]) => {
      const pairs = [...others]
      pairs.splice(at % (pairs.length + 1), 0, `${name}=${value}`)
      return pairs.join(";")
    })

const joined = (parts: ReadonlyArray<string>) =>
  fc.array(ows, { minLength: parts.length, maxLength: parts.length }).map((spaces) =>
    parts.map((part, i) => `${spaces[i]}${part}`).join(","))

const forwardedOf = (hops: ReadonlyArray<Hop>) =>
  fc.tuple(...hops.map(forwardedElement)).chain(joined)

const xForwardedForEntry = (one: Hop) =>
  fc.tuple(port, fc.boolean()).map(([p, bracket]) => {
    if (one.kind === "v6") return bracket || p !== undefined ? `[${one.address}]${p === undefined ? "" : `:${p}`}` : one.address
    return one.kind === "v4" && p !== undefined ? `${one.address}:${p}` : one.address
  })

const xForwardedForOf = (hops: ReadonlyArray<Hop>) =>
  fc.tuple(...hops.map(xForwardedForEntry)).chain(joined)

const hops = fc.array(hop, { minLength: 1, maxLength: 8 })

/** The trusted proxies: a few IPv4 addresses, and the chains they make. */
const proxies = fc.uniqueArray(fc.ipV4(), { minLength: 1, maxLength: 4 })

describe("a relay header", () => {
  it("reads back, from Forwarded, the hops written in it, farthest first", () => {
    fc.assert(
      fc.property(hops.chain((written) => fc.tuple(fc.constant(written), forwardedOf(written))), ([written, header]) => {
        expect(forwardedHops(header)).toEqual(Result.succeed(expected(written)))
      })
    )
  })

  it("reads back, from X-Forwarded-For, the hops written in it, farthest first", () => {
    fc.assert(
      fc.property(hops.chain((written) => fc.tuple(fc.constant(written), xForwardedForOf(written))), ([written, header]) => {
        expect(xForwardedForHops(header)).toEqual(Result.succeed(expected(written)))
      })
    )
  })

  it.each([
    ["Forwarded", "for=2001:db8::1", "neither a token nor a quoted string"],
    ["Forwarded", "for=\"[2001:db8::1\"", "the brackets around an IPv6 address are not closed"],
    ["Forwarded", "for=\"[192.0.2.1]\"", "not an IPv6 address in brackets"],
    ["Forwarded", "for=192.0.2.1;for=192.0.2.2", "for= twice in one element"],
    ["Forwarded", "for=\"192.0.2.1", "a quoted string is not closed"],
    ["Forwarded", "for=\"192.0.2.1:port\"", "a port is 1 to 5 digits"],
    ["Forwarded", "192.0.2.1", "expected name=value"],
    ["Forwarded", " , ", "names no hop"],
    ["X-Forwarded-For", "192.0.2.1, somewhere", "not an IPv4 address"],
    ["X-Forwarded-For", "192.0.2.01", "not an IPv4 address"]
  ])("refuses %s: %s", (header, value, reason) => {
    const read = header === "Forwarded" ? forwardedHops(value) : xForwardedForHops(value)
    expect(Result.isFailure(read)).toBe(true)
    if (Result.isFailure(read)) expect(read.failure.message).toContain(`${header} from a trusted proxy: `)
    if (Result.isFailure(read)) expect(read.failure.message).toContain(reason)
  })
})

describe("the client of a request", () => {
  const headerOf = (name: "forwarded" | "xForwardedFor", written: ReadonlyArray<Hop>) =>
    (name === "forwarded" ? forwardedOf(written) : xForwardedForOf(written)).map((value): RelayHeaders =>
      name === "forwarded" ? { forwarded: value, xForwardedFor: undefined } : { forwarded: undefined, xForwardedFor: value })

  it("is the nearest hop that is no trusted proxy, whatever the hops before it claim", () => {
    const relayed = fc.tuple(proxies, fc.array(hop, { maxLength: 4 }), hop, fc.nat(), fc.constantFrom("forwarded" as const, "xForwardedFor" as const))
      .filter(([trusted, , client]) => !trusted.includes(canonical(client.address)))
      .chain(([trusted, claimed, client, n, name]) => {
        // The proxies between the client and the gateway, nearest last; the peer is one of them too.
        const chain = Array.from({ length: n % 3 }, (_, i): Hop => ({ kind: "v4", address: trusted[i % trusted.length] ?? "" }))
        const peer = trusted[n % trusted.length] ?? ""
        return fc.tuple(fc.constant({ trusted, client, peer }), headerOf(name, [...claimed, client, ...chain]))
      })
    fc.assert(
      fc.property(relayed, ([{ trusted, client, peer }, headers]) => {
        expect(clientAddress(peer, headers, new Set(trusted))).toEqual(Result.succeed(canonical(client.address)))
      })
    )
  })

  it("is the farthest hop when every hop is a trusted proxy", () => {
    fc.assert(
      fc.property(proxies, fc.array(fc.nat(), { minLength: 1, maxLength: 4 }), (trusted, picks) => {
        const chain = picks.map((i) => trusted[i % trusted.length] ?? "")
        const header = { forwarded: undefined, xForwardedFor: chain.join(", ") }
        expect(clientAddress(trusted[0] ?? "", header, new Set(trusted))).toEqual(Result.succeed(chain[0]))
      })
    )
  })

  it("is the peer of a connection from no trusted proxy, whatever its headers say, malformed or not", () => {
    fc.assert(
      fc.property(proxies, ipv4, fc.string(), fc.string(), (trusted, peer, forwarded, xForwardedFor) => {
        fc.pre(!trusted.includes(peer.address))
        expect(clientAddress(peer.address, { forwarded, xForwardedFor }, new Set(trusted))).toEqual(Result.succeed(peer.address))
      })
    )
  })

  it("is the trusted proxy itself when it relays nothing, also as an IPv4-mapped IPv6 peer", () => {
    const trusted = new Set(["127.0.0.1"])
    const none = { forwarded: undefined, xForwardedFor: undefined }
    expect(clientAddress("127.0.0.1", none, trusted)).toEqual(Result.succeed("127.0.0.1"))
    expect(clientAddress("::ffff:127.0.0.1", { ...none, xForwardedFor: "192.0.2.7" }, trusted)).toEqual(Result.succeed("192.0.2.7"))
  })

  it("is read from Forwarded when both headers are sent", () => {
    const headers = { forwarded: "for=192.0.2.1", xForwardedFor: "198.51.100.2" }
    expect(clientAddress("127.0.0.1", headers, new Set(["127.0.0.1"]))).toEqual(Result.succeed("192.0.2.1"))
  })
})

describe("--trust-proxy's value", () => {
  it("is addresses separated by commas, kept in their canonical form", () => {
    expect(trustedProxiesOf("127.0.0.1, ::FFFF:10.0.0.1,2001:DB8::0:1")).toEqual(Option.some(new Set(["127.0.0.1", "10.0.0.1", "2001:db8::1"])))
    expect(trustedProxiesOf("127.0.0.1,localhost")).toEqual(Option.none())
    expect(trustedProxiesOf("")).toEqual(Option.none())
  })
})

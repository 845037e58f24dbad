import * as Option from "effect/Option"
import type { TokenView } from "../../client/index.ts"
import type { Device, DeviceChannel } from "../api/Devices.ts"
import type { ChannelSelector } from "../../domain/Selector.ts"
import { serviceName } from "./ServiceName.ts"
import { kindInWords } from "./Words.ts"

/** A token as the Tokens page names it and describes it, in a person's words rather than its ids. */

/** A moment as a person reads it, in their own locale. */
export const dateAndTime = (epochMillis: number): string =>
  new Date(epochMillis).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" })

const day = (epochMillis: number): string => new Date(epochMillis).toLocaleDateString()

/** A session by where it is (this browser) or when it signed in; the Migration page's by what it is for; an API token by its label. */
export const tokenName = (token: TokenView): string => {
  switch (token.kind) {
    case "session":
      return token.current ? "This browser" : `Session signed in ${dateAndTime(token.createdAt)}`
    case "comparison":
      return "The Migration page's comparisons"
    case "api":
      return token.label === "" ? `Token ${token.id}` : token.label
  }
}

export const lifeInWords = (token: TokenView): string =>
  [
    token.status === "revoked"
      ? "revoked"
      : token.expiresAt === null
      ? "never expires"
      : `${token.status === "expired" ? "expired" : "expires"} ${day(token.expiresAt)}`,
    token.lastUsedAt === null ? "never used" : `last used ${day(token.lastUsedAt)}`
  ].join(", ")

/** Which token made this one: this browser's session, a token listed by its name, or one out of this session's sight. */
export const creatorInWords = (token: TokenView, tokens: ReadonlyArray<TokenView>): string => {
  if (token.createdBy === null) return token.kind === "session" ? "a sign-in" : "the command line"
  const creator = tokens.find((other) => other.id === token.createdBy)
  return creator === undefined ? `token ${token.createdBy}` : tokenName(creator)
}

export const channelName = (service: Device, channel: DeviceChannel): string =>
  `${serviceName(service)}: ${kindInWords(channel.kind)} ${channel.mechanism === "getter" ? "reading" : "control"}`

/** One selector of a scope in words: a channel or a service by name where it names one, else what it asks for. */
const selectorInWords = (selector: ChannelSelector, services: ReadonlyArray<Device>): string => {
  if (selector.id._tag === "Exactly") {
    const id = selector.id.value
    const found = services.flatMap((service) => [...service.getters, ...service.setters].filter((c) => c.id === id).map((c) => channelName(service, c)))
    return found[0] ?? id
  }
  const parts = [
    selector.mechanism._tag === "Exactly" ? (selector.mechanism.value === "getter" ? "readings" : "controls") : "channels",
    selector.kind._tag === "Exactly" ? `of kind ${kindInWords(selector.kind.value)}` : "",
    selector.tags.length === 0 ? "" : `tagged ${selector.tags.join(", ")}`,
    selector.serviceTags.length === 0 ? "" : `of devices tagged ${selector.serviceTags.join(", ")}`
  ]
  if (selector.service._tag === "Exactly") {
    const id = selector.service.value
    const service = services.find((s) => s.id === id)
    parts.push(`of ${service === undefined ? id : serviceName(service)}`)
  }
  if (selector.id._tag === "Conflict" || selector.service._tag === "Conflict") return "nothing"
  return `all ${parts.filter((part) => part !== "").join(" ")}`
}

/** What a token reaches, each selector of its scope in words; `None`: the whole home. */
export const reachInWords = (token: TokenView, services: ReadonlyArray<Device>): ReadonlyArray<string> =>
  Option.match(token.scope, {
    onNone: () => ["the whole home"],
    onSome: (scope) => scope.channels.map((selector) => selectorInWords(selector, services))
  })

export const rightsInWords = (token: TokenView): string =>
  Option.match(token.scope, { onNone: () => "every right", onSome: (scope) => (scope.rights.length === 0 ? "no right" : scope.rights.join(", ")) })

/** The tokens revoking `token` revokes with it: those it made, and those they made, as far as `tokens` shows them. */
export const madeBy = (token: TokenView, tokens: ReadonlyArray<TokenView>): ReadonlyArray<TokenView> =>
  tokens.filter((other) => other.createdBy === token.id).flatMap((child) => [child, ...madeBy(child, tokens)])

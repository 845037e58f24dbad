/**
 * `@home-gateway/client`: the gateway in canonical terms, over either wire vocabulary (docs/client.md).
 * Imports only `effect`, src/api, the vocabularies and the domain, so that a browser bundle can carry it.
 */
export { GatewayClient, type GatewayClientShape, type ClientOptions, type ServiceView, type ChannelView, type FetchResultsView, type SendResultsView } from "./GatewayClient.ts"
export { type CallOptions, type Client, createClient, type CreateClientOptions } from "./createClient.ts"
export { RequestTimeout } from "./RequestTimeout.ts"
export type { DeprecationNotice } from "./DeprecationNotice.ts"
export {
  BadRequest,
  type ClientError,
  Forbidden,
  type GatewayError,
  NoToken,
  Transport,
  type TransportReason,
  Unauthorized,
  Unavailable,
  Unexpressible
} from "./ClientError.ts"
export type { ClientWatchEvent, Connected, ConnectionEvent, Disconnected, Resynced, WatchItem, WatchOptions } from "./WatchStream.ts"
export type { Vocabulary } from "../vocabulary/ChannelTagBody.ts"

export type { ChannelFailure, ChannelOutcome } from "./Views.ts"

// The canonical model an app builds its requests from, and the constructors that make it from plain values.
export {
  celsius,
  channelId,
  color,
  doorLocked,
  fahrenheit,
  kind,
  onOff,
  openClosed,
  seconds,
  serviceId,
  tag,
  text,
  timeStamp,
  unit,
  type ValueOf
} from "./Constructors.ts"
export type { BuiltinKindName, Kind } from "../domain/Kind.ts"
export type { Mechanism } from "../domain/Mechanism.ts"
export type { Constraint } from "../domain/Constraint.ts"
export { ChannelId, ServiceId, Tag } from "../domain/Identifier.ts"
export { conflict, empty, exactly } from "../domain/Constraint.ts"
export { anyChannel, anyService, channelSelector, everyGetter, everySetter, serviceSelector, type ChannelSelector, type ServiceSelector } from "../domain/Selector.ts"
export type { Value } from "../domain/Value.ts"
export type { Range } from "../domain/Range.ts"
export type { SendTarget } from "../domain/Request.ts"
export type { ChannelError } from "../domain/ChannelError.ts"
export type { ValueFilter, WatchEvent, WatchRegistration, WatchTarget } from "../domain/Watch.ts"
// What a token may be given, for `createToken`.
export { Right } from "../domain/Access.ts"
export type { CreatedToken, NewToken, TokenView } from "../api/Tokens.ts"
export type { Health } from "../api/Health.ts"

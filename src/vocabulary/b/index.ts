/**
 * The vocabulary B codec (docs/reference.md §3–§7, §9): JSON ⇄ the canonical model. Every decoder takes parsed
 * JSON and returns `Result<Domain, InvalidInput>` with paths rooted at `body`; encoders return JSON-ready
 * values. Encoders of requests (what a client sends) may return `Unexpressible` where B has no words.
 */
export { decodeKind, encodeKind } from "./KindJson.ts"
export {
  type ChannelSelectorRole,
  decodeEitherChannelSelector,
  decodeEitherChannelSelectors,
  decodeGetterSelector,
  decodeGetterSelectors,
  decodeServiceSelector,
  decodeServiceSelectors,
  decodeSetterSelector,
  decodeSetterSelectors,
  encodeEitherChannelSelectors,
  encodeGetterSelector,
  encodeGetterSelectors,
  encodeServiceSelector,
  encodeServiceSelectors,
  encodeSetterSelector,
  encodeSetterSelectors
} from "./SelectorJson.ts"
export {
  decodeChannel,
  decodeChannels,
  decodeService,
  decodeServices,
  encodeChannel,
  encodeChannels,
  encodeService,
  encodeServices
} from "./ResourceJson.ts"
export {
  decodeChannelTagBody,
  decodeFetchBody,
  decodeGetterTagBody,
  decodeSendBody,
  decodeServiceTagBody,
  decodeSetterTagBody,
  encodeChannelTagBody,
  encodeFetchBody,
  encodeGetterTagBody,
  encodeSendBody,
  encodeServiceTagBody,
  encodeSetterTagBody
} from "./RequestJson.ts"
export { decodeWatchFrame, encodeWatchFrame } from "./WatchJson.ts"
export { decodeFetchResults, decodeSendResults, encodeFetchResults, encodeSendResults } from "./ResultJson.ts"
export { decodeChannelError, encodeChannelError } from "./ErrorJson.ts"
export { decodeWatchEvent, encodeWatchEvent } from "./EventJson.ts"
export { decodeValue, encodeValue } from "../common/ValueJson.ts"
export { decodeRange, encodeRange } from "../common/RangeJson.ts"
export { InvalidInput } from "../common/InvalidInput.ts"
export { Unexpressible } from "../common/Unexpressible.ts"
export { decodeScope, encodeScope } from "./ScopeJson.ts"

// The wire schemas themselves: one description of each shape (decoder, encoder, JSON Schema)
export { KindJson } from "./KindJson.ts"
export {
  EitherChannelSelectorsJson,
  GetterSelectorJson,
  GetterSelectorsJson,
  ServiceSelectorJson,
  ServiceSelectorsJson,
  SetterSelectorJson,
  SetterSelectorsJson
} from "./SelectorJson.ts"
export { ChannelJson, ChannelsJson, ServiceJson, ServicesJson } from "./ResourceJson.ts"
export { ChannelTagBodyJson, GetterTagBodyJson, SendBodyJson, ServiceTagBodyJson, SetterTagBodyJson } from "./RequestJson.ts"
export { WatchFrameJson } from "./WatchJson.ts"
export { FetchResultsJson, SendResultsJson } from "./ResultJson.ts"
export { ChannelErrorJson } from "./ErrorJson.ts"
export { WatchEventJson } from "./EventJson.ts"
export { ScopeJson } from "./ScopeJson.ts"

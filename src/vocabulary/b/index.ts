/**
 * The vocabulary B codec (docs/reference.md §3–§7, §9): JSON ⇄ the canonical model, one wire shape per JSON
 * form. Each is read with `decode(shape, json)` (the model, or `InvalidInput` with paths rooted at `body`)
 * and written with `shape.write`; a shape of a request B cannot always write is written with
 * `encode(shape, value)`, which answers `Unexpressible` where B has no words (common/WireIssue.ts).
 */
export { InvalidInput } from "../common/InvalidInput.ts"
export { Unexpressible } from "../common/Unexpressible.ts"

// Kinds, values and ranges
export { KindJson } from "./KindJson.ts"
export { ValueInputJson, ValueJson } from "../common/ValueJson.ts"
export { RangeJson } from "../common/RangeJson.ts"

// Selectors (fetch_values' body is GetterSelector(s): GetterSelectorsJson)
export {
  type ChannelSelectorRole,
  EitherChannelSelectorJson,
  EitherChannelSelectorsJson,
  GetterSelectorJson,
  GetterSelectorsJson,
  ServiceSelectorJson,
  ServiceSelectorsJson,
  SetterSelectorJson,
  SetterSelectorsJson
} from "./SelectorJson.ts"

// Resources
export { ChannelJson, ChannelsJson, ServiceJson, ServicesJson } from "./ResourceJson.ts"

// Requests
export { ChannelTagBodyJson, GetterTagBodyJson, SendBodyJson, ServiceTagBodyJson, SetterTagBodyJson } from "./RequestJson.ts"
export { WatchFrameJson } from "./WatchJson.ts"
export { ScopeJson } from "./ScopeJson.ts"

// Answers
export { FetchResultsJson, SendResultsJson } from "./ResultJson.ts"
export { ChannelErrorJson } from "./ErrorJson.ts"
export { WatchEventJson } from "./EventJson.ts"

/**
 * Vocabulary A's JSON codec (docs/reference.md §2–§7): one wire shape per JSON form, each read with
 * `decode(shape, json)` (the canonical model, or `InvalidInput` with the path rooted at `body`) and written
 * with `shape.write`; a shape A cannot always write (a request's) is written with `encode(shape, value)`,
 * which answers `Unexpressible` where A has no words (common/WireIssue.ts).
 */
export { Unexpressible } from "../common/Unexpressible.ts"

// What A says of the model, where it says less than the model holds
export { type ChannelInA, channelInA } from "./ChannelJson.ts"
export { type NodeInA, nodeInA } from "./NodeJson.ts"
export { type ChannelErrorInA, channelErrorInA } from "./ChannelErrorJson.ts"
export { type FetchResultsInA, type OutcomeInA, resultsInA, type SendResultsInA } from "./ResultsJson.ts"
export { encodeWatchEvent, type WatchEventInA } from "./WatchEventJson.ts"

// Kinds and selectors (get_channel_value's body is `[GetSelector]`: GetSelectorsJson)
export { KindJson } from "./KindJson.ts"
export { ChannelTagSelectorsJson, GetSelectorJson, GetSelectorsJson, SetSelectorJson, SetSelectorsJson } from "./ChannelSelectorJson.ts"
export { NodeSelectorJson, NodeSelectorsJson } from "./NodeSelectorJson.ts"

// Resources
export { ChannelJson, ChannelsJson } from "./ChannelJson.ts"
export { NodeJson, NodesJson } from "./NodeJson.ts"

// Requests
export { ChannelTagBodyJson, NodeTagBodyJson } from "./TagRequestJson.ts"
export { PutValueBodyJson } from "./PutValueBodyJson.ts"
export { WatchFrameJson } from "./WatchOptionsJson.ts"

// Answers
export { ChannelErrorJson } from "./ChannelErrorJson.ts"
export { FetchResultsJson, SendResultsJson } from "./ResultsJson.ts"
export { WatchEventJson } from "./WatchEventJson.ts"

/**
 * Vocabulary A's JSON codec (docs/reference.md §2–§7): request bodies decoded to the canonical model, canonical answers
 * encoded back. Every decoder takes parsed JSON and returns `Result<…, InvalidInput>` with the path rooted
 * at `body`; every encoder that may meet something A cannot say returns `Result<…, Unexpressible>`.
 */
export { Unexpressible } from "../common/Unexpressible.ts"

// Kinds and selectors
export { decodeKind, encodeKind } from "./KindJson.ts"
export {
  decodeChannelTagSelectors,
  decodeGetSelectors,
  decodeSetSelectors,
  encodeChannelTagSelectors,
  encodeGetSelectors,
  encodeSetSelectors
} from "./ChannelSelectorJson.ts"
export { decodeNodeSelectors, encodeNodeSelectors } from "./NodeSelectorJson.ts"

// Resources
export { type ChannelInA, channelInA, decodeChannels, encodeChannel, encodeChannels } from "./ChannelJson.ts"
export { decodeNodes, encodeNode, encodeNodes, type NodeInA, nodeInA } from "./NodeJson.ts"

// Requests
export { decodeChannelTagBody, decodeNodeTagBody, encodeChannelTagBody, encodeNodeTagBody } from "./TagRequestJson.ts"
export {
  /** get_channel_value's body is `[GetSelector]`. */
  decodeGetSelectors as decodeGetValueBody,
  encodeGetSelectors as encodeGetValueBody
} from "./ChannelSelectorJson.ts"
export { decodePutValueBody, encodePutValueBody } from "./PutValueBodyJson.ts"
export { decodeWatchFrame, encodeWatchFrame } from "./WatchOptionsJson.ts"

// Answers
export { type ChannelErrorInA, channelErrorInA, decodeChannelError, encodeChannelError } from "./ChannelErrorJson.ts"
export {
  decodeFetchResults,
  decodeSendResults,
  encodeFetchResults,
  encodeSendResults,
  type FetchResultsInA,
  type OutcomeInA,
  resultsInA,
  type SendResultsInA
} from "./ResultsJson.ts"
export { decodeWatchEvent, encodeWatchEvent, type WatchEventInA } from "./WatchEventJson.ts"

// The wire schemas themselves: one description of each shape (decoder, encoder, JSON Schema)
export { KindJson } from "./KindJson.ts"
export { ChannelTagSelectorsJson, GetSelectorJson, GetSelectorsJson, SetSelectorJson, SetSelectorsJson } from "./ChannelSelectorJson.ts"
export { NodeSelectorJson, NodeSelectorsJson } from "./NodeSelectorJson.ts"
export { ChannelJson, ChannelsJson } from "./ChannelJson.ts"
export { NodeJson, NodesJson } from "./NodeJson.ts"
export { ChannelTagBodyJson, NodeTagBodyJson } from "./TagRequestJson.ts"
export { PutValueBodyJson } from "./PutValueBodyJson.ts"
export { WatchFrameJson } from "./WatchOptionsJson.ts"
export { ChannelErrorJson } from "./ChannelErrorJson.ts"
export { FetchResultsJson, SendResultsJson } from "./ResultsJson.ts"
export { WatchEventJson } from "./WatchEventJson.ts"

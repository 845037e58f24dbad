import { anyService, everyGetter, everySetter } from "../domain/Selector.ts"
import * as A from "../vocabulary/a/index.ts"
import { DOCS } from "../vocabulary/common/Docs.ts"
import { listing, tagging, valueReading, valueWriting } from "./BothVocabularies.ts"
import { group } from "./Endpoint.ts"

/** Vocabulary A's routes (docs/reference.md §6.3). The shared `/channels/tag` path is in ChannelTags. */

const tag = "vocabulary A"

const inputs = { thing: "input", selectors: A.GetSelectorsJson, everything: [everyGetter], answer: A.ChannelsJson }

export const vocabularyA = group(
  listing(
    { operationId: "get_nodes", method: "GET", path: "/api/v1/nodes", tag },
    { thing: "node", selectors: A.NodeSelectorsJson, everything: [anyService], answer: A.NodesJson }
  ),
  tagging({ operationId: "put_node_tag", method: "POST", path: "/api/v1/nodes/tag", tag }, "node", A.NodeTagBodyJson),
  tagging({ operationId: "delete_node_tag", method: "DELETE", path: "/api/v1/nodes/tag", tag }, "node", A.NodeTagBodyJson),
  listing(
    {
      operationId: "get_input_channels",
      method: "GET",
      path: "/api/v1/channels",
      aliases: [{ path: "/api/v1/channels/inputs", suffix: "inputs", why: DOCS ? "Another path for get_input_channels." : "" }],
      tag
    },
    inputs
  ),
  listing(
    { operationId: "get_output_channels", method: "GET", path: "/api/v1/channels/outputs", tag },
    { thing: "output", selectors: A.SetSelectorsJson, everything: [everySetter], answer: A.ChannelsJson }
  ),
  valueReading(
    { operationId: "get_channel_value", method: "GET", path: "/api/v1/channels/value", tag },
    { ...inputs, answer: A.FetchResultsJson }
  ),
  valueWriting(
    { operationId: "put_channel_value", method: "POST", path: "/api/v1/channels/value", tag },
    "output",
    DOCS ? "Send a value to outputs" : "",
    { shape: A.PutValueBodyJson, description: DOCS ? "The outputs and the value." : "" },
    A.SendResultsJson
  )
)

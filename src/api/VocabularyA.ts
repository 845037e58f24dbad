import { anyService, everyGetter, everySetter } from "../domain/Selector.ts"
import * as A from "../vocabulary/a/index.ts"
import { loneBinary, tagCount } from "./Answers.ts"
import { readBody, writeBody } from "./Bodies.ts"
import { endpoint, group } from "./Endpoint.ts"

/** Vocabulary A's routes (docs/reference.md §6.3). The shared `/channels/tag` path is in ChannelTags. */

const tag = "vocabulary A"

const nodeTags = <const Id extends string>(operationId: Id, method: "POST" | "DELETE", summary: string) =>
  endpoint({
    operationId,
    method,
    path: "/api/v1/nodes/tag",
    tag,
    summary,
    description: "Touches the nodes that match now; tags are persisted with the node id.",
    body: writeBody(A.NodeTagBodyJson, "The nodes and the tags."),
    answer: tagCount
  })

export const vocabularyA = group(
  endpoint({
    operationId: "get_nodes",
    method: "GET",
    path: "/api/v1/nodes",
    tag,
    summary: "List nodes",
    description: "The nodes matching any selector.",
    body: readBody(A.NodeSelectorsJson, [anyService], "every node"),
    answer: { status: 200, schema: A.NodesJson.wire, description: "The nodes, sorted by id." }
  }),
  nodeTags("put_node_tag", "POST", "Add tags to nodes"),
  nodeTags("delete_node_tag", "DELETE", "Remove tags from nodes"),
  endpoint({
    operationId: "get_input_channels",
    method: "GET",
    path: "/api/v1/channels",
    aliases: [{ path: "/api/v1/channels/inputs", suffix: "inputs", why: "Another path for get_input_channels." }],
    tag,
    summary: "List inputs",
    description: "The inputs matching any selector.",
    body: readBody(A.GetSelectorsJson, [everyGetter], "every input"),
    answer: { status: 200, schema: A.ChannelsJson.wire, description: "The inputs, sorted by id." }
  }),
  endpoint({
    operationId: "get_output_channels",
    method: "GET",
    path: "/api/v1/channels/outputs",
    tag,
    summary: "List outputs",
    description: "The outputs matching any selector.",
    body: readBody(A.SetSelectorsJson, [everySetter], "every output"),
    answer: { status: 200, schema: A.ChannelsJson.wire, description: "The outputs, sorted by id." }
  }),
  endpoint({
    operationId: "get_channel_value",
    method: "GET",
    path: "/api/v1/channels/value",
    tag,
    summary: "Read the values of inputs",
    description: "Asks the devices for the current value of every input matching any selector." + loneBinary,
    body: readBody(A.GetSelectorsJson, [everyGetter], "every input"),
    answer: { status: 200, schema: A.FetchResultsJson.wire, description: "The value or error of each input." }
  }),
  endpoint({
    operationId: "put_channel_value",
    method: "POST",
    path: "/api/v1/channels/value",
    tag,
    summary: "Send a value to outputs",
    description: "Writes, batched per adapter. A value of the wrong type is that output's TypeError; the others are written.",
    body: writeBody(A.PutValueBodyJson, "The outputs and the value."),
    answer: { status: 200, schema: A.SendResultsJson.wire, description: "The outcome for each output." }
  })
)

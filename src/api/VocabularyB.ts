import { anyService, everyGetter, everySetter } from "../domain/Selector.ts"
import * as B from "../vocabulary/b/index.ts"
import { loneBinary, tagCount } from "./Answers.ts"
import { type Readable, readBody, writeBody } from "./Bodies.ts"
import { type Alias, endpoint, group } from "./Endpoint.ts"

/** Vocabulary B's routes (docs/reference.md §6.2), aliases included. The shared `/channels/tag` path is in ChannelTags. */

const tag = "vocabulary B"

/** Browsers cannot send a body with GET: a read is answered at other methods too. */
const methodAlias = (method: "POST" | "PUT"): Alias => ({
  method,
  suffix: method.toLowerCase(),
  why: "An alias: browsers cannot send a body with GET."
})

/** FoxBox's plural path of the service tag operations. */
const foxBoxPath: Alias = { path: "/api/v1/services/tags", suffix: "tags", why: "FoxBox's path." }

const serviceTags = <const Id extends string>(operationId: Id, method: "POST" | "DELETE", summary: string) =>
  endpoint({
    operationId,
    method,
    path: "/api/v1/services/tag",
    aliases: [foxBoxPath],
    tag,
    summary,
    description: "Touches the services that match now; tags are persisted with the service id.",
    body: writeBody(B.ServiceTagBodyJson, "The services and the tags."),
    answer: tagCount
  })

const channels = <const Id extends string, T, W>(
  operationId: Id,
  mechanism: "getter" | "setter",
  selectors: Readable<T, W>,
  every: T
) =>
  endpoint({
    operationId,
    method: "GET",
    path: `/api/v1/channels/${mechanism}s`,
    aliases: [methodAlias("POST")],
    tag,
    summary: `List ${mechanism}s`,
    description: `The ${mechanism}s matching any selector.`,
    body: readBody(selectors, every, `every ${mechanism}`),
    answer: { status: 200, schema: B.ChannelsJson.wire, description: `The ${mechanism}s, sorted by id.` }
  })

/** `/channels/getter/tags` and `/channels/setter/tags`: FoxBox's paths, restricted to one mechanism. */
const mechanismTags = <const Id extends string, T, W>(
  operationId: Id,
  method: "POST" | "DELETE",
  mechanism: "getter" | "setter",
  body: Readable<T, W>
) =>
  endpoint({
    operationId,
    method,
    path: `/api/v1/channels/${mechanism}/tags`,
    tag,
    summary: `${method === "POST" ? "Add tags to" : "Remove tags from"} ${mechanism}s (alias)`,
    description: `FoxBox's path, for ${mechanism}s only (\`/api/v1/channels/tag\` touches either mechanism). ` +
      `Touches the ${mechanism}s that match now.`,
    body: writeBody(body, `The ${mechanism}s and the tags.`),
    answer: tagCount
  })

export const vocabularyB = group(
  endpoint({
    operationId: "get_services",
    method: "GET",
    path: "/api/v1/services",
    aliases: [methodAlias("POST")],
    tag,
    summary: "List services",
    description: "The services matching any selector.",
    body: readBody(B.ServiceSelectorsJson, [anyService], "every service"),
    answer: { status: 200, schema: B.ServicesJson.wire, description: "The services, sorted by id." }
  }),
  serviceTags("add_service_tags", "POST", "Add tags to services"),
  serviceTags("remove_service_tags", "DELETE", "Remove tags from services"),
  channels("get_getter_channels", "getter", B.GetterSelectorsJson, [everyGetter]),
  channels("get_setter_channels", "setter", B.SetterSelectorsJson, [everySetter]),
  mechanismTags("add_channel_tags_alias_getters", "POST", "getter", B.GetterTagBodyJson),
  mechanismTags("remove_channel_tags_alias_getters", "DELETE", "getter", B.GetterTagBodyJson),
  mechanismTags("add_channel_tags_alias_setters", "POST", "setter", B.SetterTagBodyJson),
  mechanismTags("remove_channel_tags_alias_setters", "DELETE", "setter", B.SetterTagBodyJson),
  endpoint({
    operationId: "fetch_values",
    method: "GET",
    path: "/api/v1/channels/get",
    aliases: [methodAlias("PUT"), methodAlias("POST")],
    tag,
    summary: "Read the values of getters",
    description: "Asks the devices for the current value of every getter matching any selector." + loneBinary,
    body: readBody(B.GetterSelectorsJson, [everyGetter], "every getter"),
    answer: { status: 200, schema: B.FetchResultsJson.wire, description: "The value or error of each getter." }
  }),
  endpoint({
    operationId: "send_values",
    method: "PUT",
    path: "/api/v1/channels/set",
    tag,
    summary: "Send values to setters",
    description: "Writes, batched per adapter. A value of the wrong type is that setter's TypeError; the others are written.",
    body: writeBody(B.SendBodyJson, "The targets and their values."),
    answer: { status: 200, schema: B.SendResultsJson.wire, description: "The outcome for each setter." }
  })
)

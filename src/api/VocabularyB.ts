import { anyService, everyGetter, everySetter } from "../domain/Selector.ts"
import * as B from "../vocabulary/b/index.ts"
import { DOCS } from "../vocabulary/common/Docs.ts"
import { type Readable, writeBody } from "./Bodies.ts"
import { tokenWith } from "./Access.ts"
import { listing, tagCount, tagging, tagVerb, valueReading, valueWriting } from "./BothVocabularies.ts"
import { type Alias, endpoint, group, type Method, type Path, routesOf } from "./Endpoint.ts"

/** Vocabulary B's routes (docs/reference.md §6.2), aliases included. The shared `/channels/tag` path is in ChannelTags. */

const tag = "vocabulary B"

/** Browsers cannot send a body with GET: a read is answered at other methods too. */
const methodAlias = (method: "POST" | "PUT"): Alias => ({
  method,
  suffix: method.toLowerCase(),
  why: DOCS ? "An alias: browsers cannot send a body with GET." : ""
})

/** FoxBox's plural path of the service tag operations. */
const foxBoxPath: Alias = { path: "/api/v1/services/tags", suffix: "tags", why: DOCS ? "FoxBox's path." : "" }

const serviceTags = <const Id extends string>(operationId: Id, method: "POST" | "DELETE") =>
  tagging({ operationId, method, path: "/api/v1/services/tag", aliases: [foxBoxPath], tag }, "service", B.ServiceTagBodyJson)

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
    access: tokenWith("tag"),
    tag,
    summary: DOCS ? `${tagVerb(method)} ${mechanism}s (alias)` : "",
    description: DOCS ? `FoxBox's path, for ${mechanism}s only (\`/api/v1/channels/tag\` touches either mechanism). ` +
      `Touches the ${mechanism}s that match now.` : "",
    body: writeBody(body, DOCS ? `The ${mechanism}s and the tags.` : ""),
    answer: tagCount
  })

const listed = [methodAlias("POST")]

const getters = { thing: "getter", selectors: B.GetterSelectorsJson, everything: [everyGetter], answer: B.ChannelsJson }

export const vocabularyB = group(
  listing(
    { operationId: "get_services", method: "GET", path: "/api/v1/services", aliases: listed, tag },
    { thing: "service", selectors: B.ServiceSelectorsJson, everything: [anyService], answer: B.ServicesJson }
  ),
  serviceTags("add_service_tags", "POST"),
  serviceTags("remove_service_tags", "DELETE"),
  listing(
    { operationId: "get_getter_channels", method: "GET", path: "/api/v1/channels/getters", aliases: listed, tag },
    getters
  ),
  listing(
    { operationId: "get_setter_channels", method: "GET", path: "/api/v1/channels/setters", aliases: listed, tag },
    { thing: "setter", selectors: B.SetterSelectorsJson, everything: [everySetter], answer: B.ChannelsJson }
  ),
  mechanismTags("add_channel_tags_alias_getters", "POST", "getter", B.GetterTagBodyJson),
  mechanismTags("remove_channel_tags_alias_getters", "DELETE", "getter", B.GetterTagBodyJson),
  mechanismTags("add_channel_tags_alias_setters", "POST", "setter", B.SetterTagBodyJson),
  mechanismTags("remove_channel_tags_alias_setters", "DELETE", "setter", B.SetterTagBodyJson),
  valueReading(
    {
      operationId: "fetch_values",
      method: "GET",
      path: "/api/v1/channels/get",
      aliases: [methodAlias("PUT"), methodAlias("POST")],
      tag
    },
    { ...getters, answer: B.FetchResultsJson }
  ),
  valueWriting(
    { operationId: "send_values", method: "PUT", path: "/api/v1/channels/set", tag },
    "setter",
    DOCS ? "Send values to setters" : "",
    { shape: B.SendBodyJson, description: DOCS ? "The targets and their values." : "" },
    B.SendResultsJson
  )
)

/**
 * Where else a B operation is answered with a body, for a client that cannot send one with GET (a
 * browser): its method aliases (none for an operation that is not a read).
 */
export const methodAliasesOf = (operationId: string): ReadonlyArray<{ readonly method: Method; readonly path: Path }> =>
  Object.values(vocabularyB)
    .filter((e) => e.operationId === operationId)
    .flatMap(routesOf)
    .filter(({ alias }) => alias?.method !== undefined)
    .map(({ method, path }) => ({ method, path }))

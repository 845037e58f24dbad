import * as Schema from "effect/Schema"
import { Channel } from "./Channel.ts"
import { AdapterId, ServiceId, Tag } from "./Identifier.ts"

/** A device (docs/reference.md §5). `properties` holds what the device says of itself (name, model…). */
export const Service = Schema.Struct({
  id: ServiceId,
  adapter: AdapterId,
  tags: Schema.Array(Tag),
  properties: Schema.Record(Schema.String, Schema.String),
  getters: Schema.Array(Channel),
  setters: Schema.Array(Channel)
})
export type Service = typeof Service.Type

import type { OwnerKind, TagsByOwner } from "../gateway/TagStore.ts"

/** A row of the `tags` table, in SQLite and PostgreSQL alike. */
export interface TagRow {
  readonly owner_kind: OwnerKind
  readonly owner_id: string
  readonly tag: string
}

/** The rows of the `tags` table as `TagStore.load` answers them. */
export const tagsByOwner = (rows: ReadonlyArray<TagRow>): TagsByOwner => {
  const byKind = { service: new Map<string, Set<string>>(), channel: new Map<string, Set<string>>() }
  for (const row of rows) {
    const byId = byKind[row.owner_kind]
    const tags = byId.get(row.owner_id)
    if (tags === undefined) byId.set(row.owner_id, new Set([row.tag]))
    else tags.add(row.tag)
  }
  return byKind
}

/** Adds `key → member` to a multimap. */
export const link = <K, V>(map: Map<K, Set<V>>, key: K, member: V): void => {
  const set = map.get(key)
  if (set === undefined) map.set(key, new Set([member]))
  else set.add(member)
}

/** Removes `key → member` from a multimap, and the key with its last member. */
export const unlink = <K, V>(map: Map<K, Set<V>>, key: K, member: V): void => {
  const set = map.get(key)
  if (set === undefined) return
  set.delete(member)
  if (set.size === 0) map.delete(key)
}

export const EMPTY: ReadonlySet<never> = new Set()

/** `items` grouped by `key`, each group in the order of `items`. */
export const groupBy = <K, A>(items: Iterable<A>, key: (item: A) => K): Map<K, Array<A>> => {
  const groups = new Map<K, Array<A>>()
  for (const item of items) {
    const k = key(item)
    const group = groups.get(k)
    if (group === undefined) groups.set(k, [item])
    else group.push(item)
  }
  return groups
}

import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import type { Tag } from "../../src/domain/index.ts"
import { EMPTY } from "../../src/gateway/Multimap.ts"
import { TagSets } from "../../src/gateway/TagSets.ts"

const tag = fc.constantFrom(..."abcde".split("")).map((t) => t as Tag)
const tags = fc.uniqueArray(tag, { maxLength: 4 })
const id = fc.constantFrom("x", "y")
const operation = fc.oneof(
  fc.record({ op: fc.constant("edit" as const), id, tags, add: fc.boolean() }),
  fc.record({ op: fc.constant("declare" as const), id, tags })
)
type Operation = typeof operation extends fc.Arbitrary<infer A> ? A : never

/**
 * The meaning of TagSets in plain sets: a thing carries its client tags and the tags its device declares,
 * less the declared ones a client removed since the device began declaring them.
 */
class Model {
  readonly client = new Map<string, Set<Tag>>()
  readonly declared = new Map<string, Set<Tag>>()
  readonly withdrawn = new Map<string, Set<Tag>>()
  of(id: string): Array<Tag> {
    const withdrawn = this.withdrawn.get(id) ?? new Set<Tag>()
    const declared = [...this.declared.get(id) ?? []].filter((t) => !withdrawn.has(t))
    return [...new Set([...this.client.get(id) ?? [], ...declared])].sort()
  }
  apply(o: Operation): void {
    const client = this.client.get(o.id) ?? new Set<Tag>()
    const withdrawn = this.withdrawn.get(o.id) ?? new Set<Tag>()
    this.client.set(o.id, client)
    this.withdrawn.set(o.id, withdrawn)
    if (o.op === "declare") {
      for (const t of withdrawn) if (!o.tags.includes(t)) withdrawn.delete(t)
      return void this.declared.set(o.id, new Set(o.tags))
    }
    for (const t of o.tags) {
      if (o.add) {
        client.add(t)
        withdrawn.delete(t)
      } else {
        client.delete(t)
        if (this.declared.get(o.id)?.has(t) === true) withdrawn.add(t)
      }
    }
  }
}

/** Tag sets as a store keeps them: what each id's device declares kept beside them (on its record, in HomeStore). */
class Declaring {
  private readonly declared = new Map<string, ReadonlySet<Tag>>()
  readonly sets = new TagSets<string>((id) => this.declared.get(id) ?? EMPTY)

  /** The device of `id` declares `tags` (none: it left); answers the tags that came and went. */
  declare(id: string, tags: ReadonlyArray<Tag>): { readonly added: ReadonlyArray<Tag>; readonly removed: ReadonlyArray<Tag> } {
    const before = this.sets.of(id)
    const declaredBefore = this.declared.get(id) ?? EMPTY
    if (tags.length === 0) this.declared.delete(id)
    else this.declared.set(id, this.sets.declaredSet(tags))
    this.sets.redeclared(id, declaredBefore)
    const after = this.sets.of(id)
    return { added: [...after].filter((tag) => !before.has(tag)), removed: [...before].filter((tag) => !after.has(tag)) }
  }

  of(id: string): ReadonlySet<Tag> {
    return this.sets.of(id)
  }

  sortedOf(id: string): ReadonlyArray<Tag> {
    return this.sets.sortedOf(id)
  }

  edit(id: string, tags: ReadonlyArray<Tag>, add: boolean): ReadonlyArray<Tag> {
    return this.sets.edit(id, tags, add)
  }
}

describe("tag sets", () => {
  it("carry a thing's client tags and the tags its device declares now, and say what came and went", () => {
    fc.assert(
      fc.property(fc.array(operation, { maxLength: 30 }), (operations) => {
        const sets = new Declaring()
        const model = new Model()
        for (const o of operations) {
          const before = [...sets.of(o.id)]
          const said = o.op === "edit"
            ? (o.add ? { added: sets.edit(o.id, o.tags, true), removed: [] } : { added: [], removed: sets.edit(o.id, o.tags, false) })
            : sets.declare(o.id, o.tags)
          model.apply(o)
          const after = [...sets.of(o.id)].sort()
          expect(after).toEqual(model.of(o.id))
          expect([...said.added].sort()).toEqual(after.filter((t) => !before.includes(t)))
          expect([...said.removed].sort()).toEqual(before.filter((t) => !after.includes(t)).sort())
        }
        for (const x of ["x", "y"]) expect([...sets.of(x)].sort()).toEqual(model.of(x))
      }),
      { numRuns: 300 }
    )
  })

  it("keep a declared tag a client removed away while the device declares the same tags, until it declares anew", () => {
    const sets = new Declaring()
    const hall = "hall" as Tag
    const light = "light" as Tag
    sets.declare("x", [hall, light])
    sets.edit("x", [hall], false)
    expect(sets.declare("x", [hall, light])).toEqual({ added: [], removed: [] })
    expect([...sets.of("x")]).toEqual([light])
    // A disconnection is an empty declaration: the device that comes back declares its tags again.
    expect(sets.declare("x", [])).toEqual({ added: [], removed: [light] })
    expect(sets.declare("x", [hall, light])).toEqual({ added: [hall, light], removed: [] })
  })

  it("share one set between the things that carry the same tags, and give a thing a set of its own once a client changes it", () => {
    const sets = new Declaring()
    const hall = "hall" as Tag
    const light = "light" as Tag
    sets.declare("x", [hall, light])
    sets.declare("y", [light, hall])
    expect(sets.of("y")).toBe(sets.of("x"))
    expect(sets.sortedOf("y")).toEqual([hall, light])
    expect(sets.sortedOf("y")).toBe(sets.sortedOf("x"))
    sets.edit("y", [hall], false)
    expect([...sets.of("x")].sort()).toEqual([hall, light])
    expect([...sets.of("y")]).toEqual([light])
    expect(sets.sortedOf("y")).toEqual([light])
  })
})

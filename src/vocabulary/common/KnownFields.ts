import * as SchemaAST from "effect/SchemaAST"

/**
 * Whether JSON holds no field its wire schema does not declare, anywhere the schema reads it, told by a
 * walk made once per schema. Such JSON is read alike with unknown fields refused and with them ignored,
 * so the cheaper reading may read it (Effect's strict reading builds a `Set` of a struct's keys on every
 * object it checks); JSON the walk is not sure of is left to the strict reading, whose words a refusal
 * keeps (WireIssue.ts's `decodeWith`).
 *
 * Sure means that what the cheaper reading accepts, the strict one accepts as the same: every object's
 * keys are its struct's; where a union is read, every member the object could be read as is checked
 * alike, and every other member misses a key it requires, so that neither reading takes it; a tuple has
 * no element past its own, or holds an element refused in any case. A schema part this walk does not
 * know (a declaration, a transformation, a struct with index signatures) holding an object or an array
 * is never sure. A part refused for its type alone (an object where a string is wanted) is sure: both
 * readings refuse it. Not sure costs only time: the strict reading then reads the JSON again.
 */
export type FieldCheck = (json: unknown) => boolean

const checks = new WeakMap<SchemaAST.AST, FieldCheck>()

/** The check of JSON read with `ast`, made the first time it is asked for, and kept. */
export const knownFieldsOnly = (ast: SchemaAST.AST): FieldCheck => {
  const kept = checks.get(ast)
  if (kept !== undefined) return kept
  // A recursive schema meets itself while its check is made: it calls the check once made.
  let made: FieldCheck | undefined
  checks.set(ast, (json) => made?.(json) === true)
  made = checkOf(ast)
  checks.set(ast, made)
  return made
}

const isContainer = (json: unknown): json is object => typeof json === "object" && json !== null

const sure: FieldCheck = () => true

/** Sure only of JSON that holds no object nor array. */
const unsure: FieldCheck = (json) => !isContainer(json)

const checkOf = (ast: SchemaAST.AST): FieldCheck => {
  if (ast.encoding !== undefined) return unsure
  switch (ast._tag) {
    case "Objects":
      return objectCheck(ast)
    case "Arrays":
      return arrayCheck(ast)
    case "Union":
      return unionCheck(ast)
    case "Suspend":
      return knownFieldsOnly(ast.thunk())
    case "Declaration":
    case "ObjectKeyword":
      return unsure
    // Any other part reads no field of what it holds: Unknown and Any read none at all.
    default:
      return sure
  }
}

const objectCheck = (ast: SchemaAST.Objects): FieldCheck => {
  if (ast.indexSignatures.length > 0) return unsure
  const fields = new Map(ast.propertySignatures.map((p) => [String(p.name), knownFieldsOnly(p.type)]))
  return (json) => {
    // Not an object (an array included): both readings refuse it for its type.
    if (!isContainer(json) || Array.isArray(json)) return true
    const record = json as { readonly [key: string]: unknown }
    for (const key in record) {
      const check = fields.get(key)
      if (check === undefined || !check(record[key])) return false
    }
    return true
  }
}

const arrayCheck = (ast: SchemaAST.Arrays): FieldCheck => {
  if (ast.rest.length > 1) return unsure
  const elements = ast.elements.map(knownFieldsOnly)
  const required = ast.elements.filter((e) => !SchemaAST.isOptional(e)).length
  const [restAst] = ast.rest
  const rest = restAst === undefined ? undefined : knownFieldsOnly(restAst)
  return (json) => {
    // Not an array, or short of the elements it requires: both readings refuse it for that.
    if (!Array.isArray(json) || json.length < required) return true
    // Elements past a tuple's own: whether the readings refuse them alike is not this walk's to say.
    if (rest === undefined && json.length > elements.length) return false
    for (let at = 0; at < json.length; at++) {
      // An element refused in any case refuses the tuple, whatever the others hold.
      if (!(elements[at] ?? rest ?? unsure)(json[at])) return ast.elements.some((element, e) => refusedAnyway(element, json[e]))
    }
    return true
  }
}

/**
 * Whether `ast` refuses `json` even with unknown fields ignored, for what it is and not for a field: an
 * object without a key its struct requires, a value of another type. Not sure, it says no.
 */
const refusedAnyway = (ast: SchemaAST.AST, json: unknown): boolean => {
  if (ast.encoding !== undefined) return false
  switch (ast._tag) {
    case "Objects":
      return !isContainer(json) || Array.isArray(json) ||
        ast.propertySignatures.some((p) => !SchemaAST.isOptional(p.type) && !Object.hasOwn(json, String(p.name)))
    case "Union":
      return ast.types.every((member) => refusedAnyway(member, json))
    case "Suspend":
      return refusedAnyway(ast.thunk(), json)
    case "Null":
      return json !== null
    case "String":
      return typeof json !== "string"
    case "Number":
      return typeof json !== "number"
    case "Boolean":
      return typeof json !== "boolean"
    case "Literal":
      return json !== ast.literal
    default:
      return false
  }
}

/** A union's members, with those of the unions among them in their place: the order they are tried in. */
const membersOf = (ast: SchemaAST.AST): ReadonlyArray<SchemaAST.AST> =>
  ast._tag === "Union" && ast.encoding === undefined
    ? ast.types.flatMap(membersOf)
    : ast._tag === "Suspend"
    ? membersOf(ast.thunk())
    : [ast]

/** What a member reads of an object: a struct (its keys, and those it requires), anything, or nothing. */
type ObjectReading =
  | ({ readonly _tag: "struct" } & Struct)
  | { readonly _tag: "any" }
  | { readonly _tag: "none" }
  | { readonly _tag: "unknown" }

const objectReadingOf = (member: SchemaAST.AST): ObjectReading => {
  if (member.encoding !== undefined) return { _tag: "unknown" }
  switch (member._tag) {
    case "Objects":
      return member.indexSignatures.length > 0 ? { _tag: "unknown" } : {
        _tag: "struct",
        keys: new Set(member.propertySignatures.map((p) => String(p.name))),
        required: member.propertySignatures.filter((p) => !SchemaAST.isOptional(p.type)).map((p) => String(p.name)),
        check: knownFieldsOnly(member)
      }
    case "Unknown":
    case "Any":
      return { _tag: "any" }
    case "Declaration":
    case "ObjectKeyword":
    case "Union":
    case "Suspend":
      return { _tag: "unknown" }
    default:
      return { _tag: "none" }
  }
}

interface Struct {
  readonly keys: ReadonlySet<string>
  readonly required: ReadonlyArray<string>
  readonly check: FieldCheck
}

const unionCheck = (ast: SchemaAST.Union): FieldCheck => {
  const members = membersOf(ast)
  // Those that may read an array: each is sure of it, or refuses it alike in both readings (arrayCheck).
  const arrays = members.filter((m) => m._tag === "Arrays" || m._tag === "Declaration" || m._tag === "ObjectKeyword" || m.encoding !== undefined)
    .map(knownFieldsOnly)
  const readings = members.map(objectReadingOf)
  if (readings.some((r) => r._tag === "unknown")) return unsure
  const structs = readings.flatMap((r) => (r._tag === "struct" ? [r] : []))
  // A struct that requires no key may read any object; any other, only objects with a key it declares.
  const readingAny = structs.filter((s) => s.required.length === 0)
  const byKey = new Map<string, Array<Struct>>()
  for (const struct of structs) {
    if (struct.required.length === 0) continue
    for (const key of struct.keys) byKey.set(key, [...(byKey.get(key) ?? []), struct])
  }
  return (json) => {
    if (!isContainer(json)) return true
    if (Array.isArray(json)) return arrays.every((check) => check(json))
    const record = json as { readonly [key: string]: unknown }
    const keys = Object.keys(record)
    for (const struct of readingAny) if (!struct.check(record)) return false
    for (const key of keys) {
      for (const struct of byKey.get(key) ?? noStructs) if (!surelyAlike(struct, keys, record)) return false
    }
    return true
  }
}

const noStructs: ReadonlyArray<Struct> = []

/**
 * Whether both readings read `record` alike with `struct`: it declares every key and its fields are sure,
 * or it misses a key it requires, so that neither reading takes it.
 */
const surelyAlike = (struct: Struct, keys: ReadonlyArray<string>, record: { readonly [key: string]: unknown }): boolean => {
  let declared = true
  for (const key of keys) {
    if (!struct.keys.has(key)) {
      declared = false
      break
    }
  }
  if (declared) return struct.check(record)
  for (const key of struct.required) if (!Object.hasOwn(record, key)) return true
  return false
}

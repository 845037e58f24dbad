/** Kinds in vocabulary B (wire.md §3): a bare name (`"OnOff"`), or an Extension object; shared with the home file. */
export { decodeKindName as decodeKind, encodeKindName as encodeKind } from "../common/KindNameJson.ts"

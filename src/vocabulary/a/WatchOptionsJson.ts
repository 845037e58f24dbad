import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import { andChannel } from "../../domain/SelectorAlgebra.ts"
import { WatchTarget } from "../../domain/Watch.ts"
import { DOCS } from "../common/Docs.ts"
import { partialWireShape, writeEach } from "../common/WireShape.ts"
import { GetSelectorJson, GetSelectorsJson } from "./ChannelSelectorJson.ts"

/**
 * A watch frame in vocabulary A (docs/reference.md §7): `[WatchOptions]`, WatchOptions being
 * `{"source": GetSelector, "narrow": [GetSelector]?, "should_watch_values": bool?, "should_watch_topology": bool?,
 * "should_send_initial_values": bool?}`. Each WatchOptions is one target of the registration: the selector
 * `source ∧ narrow[0] ∧ …`, every value (`Always`) or none (`Never`), topology events or not, current values
 * or not (this gateway's extension). The booleans default to false.
 *
 * Each target is written with its selector as `source` and no `narrow` (the AND is already taken), so
 * `decode(encode(r)) = r`. A watch on a range has no A form: A watches all values or none.
 */
const watchOptions = Schema.Struct({
  source: GetSelectorJson.wire,
  narrow: Schema.optionalKey(GetSelectorsJson.wire).annotateKey({
    description: DOCS ? "ANDed with `source`: the watched selector is `source ∧ narrow[0] ∧ …`." : ""
  }),
  should_watch_values: Schema.optionalKey(Schema.Boolean).annotateKey({ description: DOCS ? "Send the inputs' values (default false)." : "" }),
  should_watch_topology: Schema.optionalKey(Schema.Boolean).annotateKey({
    description: DOCS ? "Send inputs joining and leaving the set (default false)." : ""
  }),
  should_send_initial_values: Schema.optionalKey(Schema.Boolean).annotateKey({
    description: DOCS ? "An extension of this gateway: with `should_watch_values`, also send each input's current value (the last " +
      "the gateway holds) when this frame registers it and when it joins the set later, before its later values (default false)." : ""
  })
}).annotate({
  expected: "a WatchOptions",
  identifier: "AWatchOptions",
  description: DOCS ? "Watch the inputs `source ∧ narrow[0] ∧ …` matches, a live set; their values when `should_watch_values` " +
    "and their joining and leaving when `should_watch_topology` (both default to false); with `should_send_initial_values`, " +
    "their current values too." : ""
})

const readOptions = (json: typeof watchOptions.Type): WatchTarget => ({
  selector: (json.narrow === undefined ? [] : GetSelectorsJson.read(json.narrow)).reduce(andChannel, GetSelectorJson.read(json.source)),
  values: json.should_watch_values === true ? { _tag: "Always" } : { _tag: "Never" },
  topology: json.should_watch_topology === true,
  initialValues: json.should_send_initial_values === true
})

const writeOptions = (target: WatchTarget) =>
  target.values._tag === "InRange"
    ? Result.fail("vocabulary A cannot watch a range of values: it watches all values or none")
    : Result.map(GetSelectorJson.write(target.selector), (source) => ({
      source,
      should_watch_values: target.values._tag === "Always",
      should_watch_topology: target.topology,
      // The extension is written only when asked, so that a frame without it is the contract's own.
      ...(target.initialValues ? { should_send_initial_values: true } : {})
    }))

export const WatchFrameJson = partialWireShape({
  wire: Schema.Array(watchOptions).annotate({
    expected: "an array of WatchOptions",
    identifier: "AWatchFrame",
    description: DOCS ? "A registration of the watch socket in vocabulary A: its targets, united. Each frame replaces the previous one." : ""
  }),
  read: (json) => json.map(readOptions),
  write: (targets: ReadonlyArray<WatchTarget>) => writeEach(targets, writeOptions)
}, Schema.Array(WatchTarget))

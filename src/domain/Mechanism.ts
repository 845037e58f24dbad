import * as Schema from "effect/Schema"

/** How a channel is used: a getter produces values (A: input, `Get`), a setter accepts them (A: output, `Set`). */
export const Mechanism = Schema.Literals(["getter", "setter"])
export type Mechanism = typeof Mechanism.Type

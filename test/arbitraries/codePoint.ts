import * as fc from "fast-check"

/** The surrogates (U+D800 to U+DFFF), which no code point of a well-formed string is. */
const surrogates = { first: 0xd800, count: 0x800 }

/**
 * One code point, any but a surrogate, as a string: fast-check's `unit: "binary"` drawn alike (the same
 * index over the same two ranges, so the same values and shrinks). Its own unit builds, on first use in
 * a process, a map from each of the 1,112,064 code points back to its index (1.7 s of CPU in each
 * worker that imports a `unit: "binary"` string); this one finds the index by arithmetic.
 */
export const codePoint: fc.Arbitrary<string> = fc.nat({ max: 0x10ffff - surrogates.count }).map(
  (index) => String.fromCodePoint(index < surrogates.first ? index : index + surrogates.count),
  (value) => {
    const point = typeof value === "string" ? value.codePointAt(0) : undefined
    // fast-check asks an unmapper to throw for a value it cannot have drawn (it then does not shrink it).
    if (point === undefined || String.fromCodePoint(point) !== value || (point >= surrogates.first && point < surrogates.first + surrogates.count)) {
      throw new Error("not one code point outside the surrogates")
    }
    return point < surrogates.first ? point : point - surrogates.count
  }
)

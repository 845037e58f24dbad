import * as Redacted from "effect/Redacted"
import { hash, randomBytes } from "node:crypto"

/**
 * A token is `gw_` and 256 random bits in base64url: opaque, unguessable, safe in a URL (`?auth=`).
 * The database keeps only its SHA-256: a stolen database file holds no usable token. A plain hash is
 * enough (unlike passwords): the secret has full entropy, so there is nothing to guess.
 */

const prefix = "gw_"

export const mintToken = (): Redacted.Redacted<string> => Redacted.make(prefix + randomBytes(32).toString("base64url"))

/** One-shot `crypto.hash`: every request hashes its token, and a Hash object costs eight times as much. */
export const hashToken = (token: Redacted.Redacted<string>): string => hash("sha256", Redacted.value(token), "hex")

/** Whether a presented string has a token's shape, before any lookup: 43 base64url characters after the prefix. */
export const looksLikeToken = (text: string): boolean => /^gw_[A-Za-z0-9_-]{43}$/.test(text)

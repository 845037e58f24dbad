import type * as PlatformError from "effect/PlatformError"

/** Why a file named by a flag could not be read, in a few words (the message says the path already). */
export const whyUnreadable = ({ reason }: PlatformError.PlatformError): string =>
  reason._tag === "NotFound" ? "no such file" : reason._tag === "PermissionDenied" ? "permission denied" : reason.description ?? reason.message

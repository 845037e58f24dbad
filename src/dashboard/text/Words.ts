import type { ChannelView, SendResultsView, Value } from "../../client/index.ts"

/** Values, kinds and errors as a person reads them, not as the wire writes them. */

type SendFailure = Extract<SendResultsView[number]["result"], { readonly _tag: "Failure" }>["failure"]

export const valueInWords = (value: Value): string => {
  switch (value._tag) {
    case "Unit":
      return "—"
    case "OnOff":
    case "OpenClosed":
    case "DoorLocked":
      return value.state
    case "Duration":
      return `${value.seconds} s`
    case "TimeStamp":
      return new Date(value.epochMillis).toLocaleString()
    case "Temperature":
      return `${value.degrees} °${value.unit}`
    case "Color":
      return `hue ${Math.round(value.h)}°, saturation ${Math.round(value.s * 100)} %, brightness ${Math.round(value.v * 100)} %`
    case "String":
      return value.value
    case "Json":
      return JSON.stringify(value.value)
    case "Binary":
      return `${value.mimetype}, ${value.data.length} bytes`
    case "ExtBool":
    case "ExtNumeric":
      return String(value.value)
  }
}

export const kindInWords = (kind: ChannelView["kind"]): string =>
  kind._tag === "Builtin" ? kind.name : `${kind.vendor} ${kind.kind}`

/** Why a setter did not take a value (the other setters of the same request may have). */
export const sendFailureInWords = (error: SendFailure): string => {
  switch (error._tag) {
    case "NoSuchService":
      return `the service ${error.id} is gone`
    case "NoSuchGetter":
    case "NoSuchSetter":
      return `the channel ${error.id} is gone`
    case "TypeMismatch":
      return "the channel does not take this kind of value"
    case "DeviceFailure":
      return `the device failed: ${error.message}`
  }
}

/** A rejected call of the client: its typed error's message, else whatever was thrown. */
export const failureInWords = (error: unknown): string =>
  typeof error === "object" && error !== null && "message" in error && typeof error.message === "string" && error.message !== ""
    ? error.message
    : "the gateway cannot be reached"

/** Whether a rejected call of the client was refused for its token (401): the session has ended. */
export const sessionEnded = (error: unknown): boolean =>
  typeof error === "object" && error !== null && "_tag" in error && error._tag === "Unauthorized"

import * as Result from "effect/Result"
import { vocabularyB } from "../../api/VocabularyB.ts"
import { type GatewayError, statusError, Transport } from "../../client/ClientError.ts"
import { formatPath } from "../../vocabulary/common/InvalidInput.ts"
import { parseJson } from "../../vocabulary/common/JsonText.ts"
import { type Exchanged, refusalInWords } from "./Api.ts"
import { type ChannelSummary, readServiceSummaries, type ServiceSummary } from "../../vocabulary/b/ServiceSummaryJson.ts"

/** A device as the pages show it: its service in summary (vocabulary B's listing, read for what the pages use). */
export type Device = ServiceSummary

/** A channel of a device as the pages show it. */
export type DeviceChannel = ChannelSummary

/** How long the listing may take to come whole: the client's own default time-out. */
const timeoutMs = 10_000

const listing = vocabularyB.get_services

/**
 * The home's devices: vocabulary B's listing of every service, asked with the session's token and read
 * with the summary reader of src/vocabulary/b/ServiceSummaryJson.ts rather than the client's. It fails as the client does,
 * with the client's typed errors (an `Unauthorized` when the session has ended, a `Transport` when the
 * gateway cannot be reached or its answer does not read), so the page treats both alike.
 */
export const listDevices = async (token: string): Promise<Result.Result<ReadonlyArray<Device>, GatewayError>> => {
  const said = `${listing.method} ${listing.path}`
  let answer: Exchanged
  try {
    const response = await fetch(listing.path, { headers: { authorization: `Bearer ${token}` }, signal: AbortSignal.timeout(timeoutMs) })
    answer = { status: response.status, statusText: response.statusText, text: await response.text() }
  } catch (error) {
    const timedOut = error instanceof DOMException && error.name === "TimeoutError"
    return Result.fail(new Transport(timedOut
      ? { reason: "TimedOut", message: `${said}: no answer within ${timeoutMs / 1000} s` }
      : { reason: "Refused", message: `${said}: the gateway cannot be reached` }))
  }
  if (answer.status < 200 || answer.status >= 300) return Result.fail(statusError(answer.status, refusalInWords(answer)))
  const unreadable = (why: string) => Result.fail(new Transport({ reason: "Unreadable", message: `the gateway's answer does not read as get_services answers: ${why}` }))
  const json = parseJson(answer.text)
  if (Result.isFailure(json)) return unreadable(`not JSON: ${json.failure}`)
  const devices = readServiceSummaries(json.success)
  return Result.isSuccess(devices) ? Result.succeed(devices.success) : unreadable(`${formatPath(devices.failure.path, "")}: ${devices.failure.reason}`)
}

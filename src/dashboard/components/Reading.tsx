import type { Value } from "../../client/index.ts"
import type { DeviceChannel } from "../api/Devices.ts"
import { readingInWords, readingName } from "../text/Readings.ts"

/** Binary data as a `data:` URL (the page's Content-Security-Policy takes `data:` images), in chunks a call can spread. */
const dataUrl = (value: Extract<Value, { readonly _tag: "Binary" }>): string => {
  let text = ""
  for (let at = 0; at < value.data.length; at += 8192) text += String.fromCharCode(...value.data.slice(at, at + 8192))
  return `data:${value.mimetype};base64,${btoa(text)}`
}

/**
 * One reading of a card: its name (`Temperature`) and its value in words (`19.8 °C`), under the id
 * `value-<getter id>`; a picture (a camera's snapshot) as the image, described by its device.
 */
export const Reading = (props: { readonly getter: DeviceChannel; readonly value: Value | undefined; readonly device: string }) => {
  const { getter, value } = props
  const id = `value-${getter.id}`
  const name = readingName(getter.kind)
  return (
    <div class="reading">
      <dt>{name}</dt>
      <dd id={id}>
        {value?._tag === "Binary" && value.mimetype.startsWith("image/")
          ? <img class="picture" src={dataUrl(value)} alt={`${props.device}: ${name}`} />
          : readingInWords(getter.kind, value)}
      </dd>
    </div>
  )
}

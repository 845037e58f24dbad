import { useState } from "preact/hooks"
import type { Device } from "../api/Devices.ts"
import type { LiveHome } from "../state/LiveHome.ts"
import { roomTag, roomTags } from "../text/Rooms.ts"
import { Problem } from "./Field.tsx"

/**
 * The room a device is in, changed from its card's details: its `room:` tags taken off, the new one put
 * on (none for a blank room: the device is then in no room). The rooms of the home are offered as the
 * field is typed in (the page's `<datalist id="rooms">`).
 */
export const RoomField = (props: {
  readonly service: Device
  readonly room: string | undefined
  readonly rooms: ReadonlyArray<string>
  readonly home: LiveHome
}) => {
  const { service, home } = props
  const [text, setText] = useState(props.room ?? "")
  const [problem, setProblem] = useState<string | undefined>(undefined)
  const id = `room-${service.id}`
  const move = async (event: SubmitEvent) => {
    event.preventDefault()
    const room = text.trim()
    const target = { service: service.id }
    const wanted = room === "" ? undefined : roomTag(room)
    for (const tag of roomTags(service).filter((tag) => tag !== wanted)) {
      const refused = await home.tag(target, tag, "remove")
      if (refused !== undefined) return setProblem(refused)
    }
    setProblem(wanted === undefined || service.tags.some((tag) => tag === wanted) ? undefined : await home.tag(target, wanted, "add"))
  }
  return (
    <form class="room-field" onSubmit={move}>
      <label for={id}>Room</label>
      <input id={id} type="text" list="rooms" value={text} placeholder="e.g. Kitchen; empty for none"
        onInput={(event) => setText(event.currentTarget.value)} />
      <button type="submit">Move</button>
      <Problem message={problem} />
    </form>
  )
}

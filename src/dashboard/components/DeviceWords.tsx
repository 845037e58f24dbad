import { withoutBidiControls } from "../text/DeviceText.ts"

/** Text a device gives, isolated from what surrounds it and without bidi controls (text/DeviceText.ts). */
export const DeviceWords = (props: { readonly text: string }) => <bdi>{withoutBidiControls(props.text)}</bdi>

/**
 * Text a device or a bridge supplies (a name, a model, a unit…) as the API shows it: at most 256
 * characters (code points, as identifiers count them), a longer text cut to 255 and "…". A device
 * may send any size; every services answer carries it.
 */

/** The longest device text the API shows, in characters. */
export const MAX_DEVICE_TEXT = 256

export const boundedText = (text: string): string => {
  // A text is never longer in code points than in UTF-16 units.
  if (text.length <= MAX_DEVICE_TEXT) return text
  let characters = 0
  let kept = 0
  for (const character of text) {
    characters++
    if (characters > MAX_DEVICE_TEXT) return `${text.slice(0, kept)}…`
    if (characters < MAX_DEVICE_TEXT) kept += character.length
  }
  return text
}

/** A service's properties, each value bounded. */
export const boundedProperties = (properties: Readonly<Record<string, string>>): Record<string, string> =>
  Object.fromEntries(Object.entries(properties).map(([key, value]) => [key, boundedText(value)]))

/**
 * Text a device gives (its name, its model) as the dashboard shows it: without the bidi controls that
 * would reorder what is shown around it (a name holding U+202E reads backwards), and isolated
 * (`<bdi>`, components/DeviceWords.tsx) so that its own direction stays inside it.
 */

/** Embeddings and overrides (U+202A–U+202E), isolates (U+2066–U+2069), and the marks U+200E, U+200F, U+061C. */
const bidiControls = /[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/g

export const withoutBidiControls = (text: string): string => text.replace(bidiControls, "")

import { useState } from "preact/hooks"

/**
 * What a setter's control keeps while it sends: whether a value is on its way, and why the setter did
 * not take the last one, in words (undefined when it did).
 */
export const useSending = () => {
  const [busy, setBusy] = useState(false)
  const [problem, setProblem] = useState<string | undefined>(undefined)
  /** Sends with `sent`, which answers the setter's refusal in words, or undefined. */
  const sending = async (sent: () => Promise<string | undefined>) => {
    setBusy(true)
    setProblem(await sent())
    setBusy(false)
  }
  return { busy, problem, setProblem, sending }
}

import { useState } from "preact/hooks"

/**
 * What a setter's control keeps while it sends: whether a value is on its way, why the setter did not
 * take the last one, in words (undefined when it did), and whether it took it.
 */
export const useSending = () => {
  const [busy, setBusy] = useState(false)
  const [problem, setProblem] = useState<string | undefined>(undefined)
  const [sent, setSent] = useState(false)
  /** Sends with `sent`, which answers the setter's refusal in words, or undefined. */
  const sending = async (send: () => Promise<string | undefined>) => {
    setBusy(true)
    setSent(false)
    const refusal = await send()
    setProblem(refusal)
    setSent(refusal === undefined)
    setBusy(false)
  }
  /** Forgets the last outcome: the person is typing another value. */
  const clear = () => {
    setProblem(undefined)
    setSent(false)
  }
  return { busy, problem, sent, setProblem, sending, clear }
}

let due: Array<() => void> = []

const runDue = (): void => {
  const now = due
  due = []
  for (const callback of now) callback()
}

/**
 * Runs `callback` once the current turn of the event loop has done its I/O, with every other callback
 * asked for in the same turn, in the order asked, from one `setImmediate`: a value written to a
 * thousand watch sockets costs one immediate, not a thousand. `callback` must not throw: it would cut
 * short the others of its turn.
 */
export const atSharedImmediate = (callback: () => void): void => {
  if (due.push(callback) === 1) setImmediate(runDue)
}

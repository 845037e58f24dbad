/**
 * The oldest Node the gateway runs on: package.json's `engines.node` (a test keeps them equal), which
 * `@effect/platform-node` needs. This file imports nothing: it is read before the gateway is loaded.
 */
export const oldestNode = { major: 22, minor: 19 } as const

/** Whether `version` (`process.versions.node`, e.g. `20.20.2`) is `oldestNode` or newer. */
export const runsOn = (version: string): boolean => {
  const [major = 0, minor = 0] = version.split(".").map(Number)
  return major > oldestNode.major || (major === oldestNode.major && minor >= oldestNode.minor)
}

/** What the gateway says, in one line, when started on an older Node (`node` is its path). */
export const tooOldNode = (version: string, node: string): string =>
  `gateway: needs Node ${oldestNode.major}.${oldestNode.minor} or newer, and ${node} is Node ${version}; ` +
  "run it with `npm start` or `npx gateway …`, which use the Node that comes with the project (node_modules/.bin/node)"

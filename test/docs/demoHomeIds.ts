import { demoHome } from "../../src/adapters/simulator/DemoHome.ts"

interface Listed {
  readonly id: string
  readonly getters?: ReadonlyArray<{ readonly id: string }> | undefined
  readonly setters?: ReadonlyArray<{ readonly id: string }> | undefined
}

/**
 * The ids of the demo home as docs/simulator.md lists them: each service, then its getters and setters,
 * indented, in the order of src/adapters/simulator/DemoHome.ts.
 */
export const demoHomeIdList = (): string =>
  demoHome.services
    .flatMap((service: Listed) => [
      service.id,
      ...(service.getters ?? []).map((getter) => `  ${getter.id}`),
      ...(service.setters ?? []).map((setter) => `  ${setter.id}`)
    ])
    .join("\n")

import { spawn } from "node:child_process"
import { existsSync, writeFileSync } from "node:fs"
import { createServer } from "node:net"
import { join } from "node:path"
import { Data, Effect, Schedule, type Scope } from "effect"
import { connectAsync, type MqttClient } from "mqtt"
import { tempDir } from "./TempDir.ts"

export class MosquittoFailed extends Data.TaggedError("MosquittoFailed")<{ readonly reason: string }> {
  override get message(): string {
    return `mosquitto: ${this.reason} (install it with \`sudo apt-get install -y mosquitto\`)`
  }
}

/** A free loopback port, as the kernel hands one out (mosquitto cannot be asked for port 0). */
const freePort = Effect.callback<number>((resume) => {
  const server = createServer().listen(0, "127.0.0.1", () => {
    const address = server.address()
    const port = typeof address === "object" && address !== null ? address.port : 0
    server.close(() => resume(Effect.succeed(port)))
  })
})

/** An MQTT client of the bench, ended with the scope. */
export const mqttClient = (url: string): Effect.Effect<MqttClient, MosquittoFailed, Scope.Scope> =>
  Effect.acquireRelease(
    Effect.tryPromise({ try: () => connectAsync(url, { reconnectPeriod: 0 }), catch: (error) => new MosquittoFailed({ reason: String(error) }) }),
    (client) => Effect.promise(() => client.endAsync(true))
  )

/**
 * Debian's mosquitto on a free loopback port, anonymous, without persistence: the broker of the MQTT
 * discovery cases, started by the bench and stopped with the scope. Answers its URL once it takes clients.
 */
export const mosquitto = Effect.gen(function*() {
  const dir = yield* tempDir
  const port = yield* freePort
  const config = join(dir, "mosquitto.conf")
  writeFileSync(config, [`listener ${port} 127.0.0.1`, "allow_anonymous true", "max_queued_messages 0", ""].join("\n"))
  const bin = existsSync("/usr/sbin/mosquitto") ? "/usr/sbin/mosquitto" : "mosquitto"
  yield* Effect.acquireRelease(
    Effect.sync(() => spawn(bin, ["-c", config], { stdio: "ignore" })),
    (child) => Effect.sync(() => void child.kill("SIGTERM"))
  )
  const url = `mqtt://127.0.0.1:${port}`
  // Taking clients: a connection succeeds (retried while it starts).
  yield* Effect.scoped(mqttClient(url)).pipe(Effect.retry(Schedule.spaced(50).pipe(Schedule.upTo({ duration: 5_000 }))))
  return url
})

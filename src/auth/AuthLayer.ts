import { Layer } from "effect"
import { TokenRepository } from "../store/TokenRepository.ts"
import { UserRepository } from "../store/UserRepository.ts"
import { FirstRun } from "./FirstRun.ts"
import { LiveSockets } from "./LiveSockets.ts"
import { LoginThrottle } from "./LoginThrottle.ts"
import { Tokens } from "./Tokens.ts"
import { Users } from "./Users.ts"

/** Users, tokens, the login throttle, the watch-socket counter and the first-run admin. Needs Database and GatewayConfig. */
export const AuthLayer = FirstRun.layer.pipe(
  Layer.provideMerge(Layer.mergeAll(Users.layer, Tokens.layer, LoginThrottle.layer, LiveSockets.layer)),
  Layer.provideMerge(Layer.mergeAll(UserRepository.layer, TokenRepository.layer))
)

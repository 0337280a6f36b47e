// Process-level wiring shared by the CLI commands and the server: the session service over the chosen state dir.

import { createSessionService, type SessionService } from "../service/session-service.ts";
import type { UserEnvironment } from "../sources/user-path.ts";
import type { StateChoice } from "./config.ts";

export interface Runtime {
  state: StateChoice;
  service: SessionService;
}

export function createRuntime(state: StateChoice, environment: UserEnvironment): Runtime {
  return { state, service: createSessionService({ ...state, environment }) };
}

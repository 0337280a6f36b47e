// The HTTP shell: Host check, JSON errors, the API routes (server/http/routes/*) and the static SPA.
// createApp(deps) is pure wiring — no file system or process access here — so route tests use app.request.

import type { Context } from "hono";
import { Hono } from "hono";
import { errorBody } from "../../shared/result.ts";
import type { SessionService } from "../service/session-service.ts";
import { isAllowedHost } from "./host-check.ts";
import { createEventsRoute } from "./routes/events.ts";
import { exportRoutes } from "./routes/export.ts";
import { pruneRoutes } from "./routes/prune.ts";
import { sessionRoutes } from "./routes/sessions.ts";

export interface AppDeps {
  service: SessionService;
  /** Host the server is bound to (for the Host-header check). */
  boundHost: string;
  /** Port the server listens on, when known (tests: null). */
  port: number | null;
  /** Serves the built SPA (dist/web) — injected so tests can run without a build. */
  staticHandler?: (c: Context, path: string) => Promise<Response | null>;
}

export function createApp(deps: AppDeps) {
  const { service } = deps;

  const api = new Hono()
    .route("/", sessionRoutes(service))
    .route("/", pruneRoutes(service))
    .route("/", exportRoutes(service))
    .route("/events", createEventsRoute(service.bus));

  const app = new Hono();

  // Refuse foreign Host headers (DNS rebinding) before anything else runs.
  app.use("*", async (c, next) => {
    const host = c.req.header("host") ?? new URL(c.req.url).host;
    if (!isAllowedHost(host, deps.boundHost, deps.port)) {
      return c.json(
        errorBody({ code: "forbidden-host", message: `Host ${JSON.stringify(host)} is not allowed` }),
        403,
      );
    }
    await next();
    c.header("X-Content-Type-Options", "nosniff");
    c.header("Referrer-Policy", "no-referrer");
  });

  app.onError((err, c) => {
    process.stderr.write(`clawscope: ${err.stack ?? String(err)}\n`);
    return c.json(errorBody({ code: "internal", message: err.message }), 500);
  });

  const routes = app.route("/api", api);

  // Unknown /api/* is a JSON 404, never the SPA.
  app.all("/api/*", (c) =>
    c.json(errorBody({ code: "not-found", message: `no API route ${c.req.path}` }), 404),
  );

  app.get("*", async (c) => {
    if (deps.staticHandler) {
      const res = await deps.staticHandler(c, c.req.path);
      if (res) return res;
    }
    return c.text("clawscope: the web app is not built (run `npm run build`).", 404);
  });

  return routes;
}

export type AppType = ReturnType<typeof createApp>;

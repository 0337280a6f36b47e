// The HTTP shell: Host check, JSON errors, the API routes (server/http/routes/*) and the static SPA.
// createApp(deps) is pure wiring — no file system or process access here — so route tests use app.request.

import type { Context } from "hono";
import { Hono } from "hono";
import { errorBody } from "../../shared/result.ts";
import type { SessionService } from "../service/session-service.ts";
import { REFUSAL_HEADERS, refusalOf, SECURITY_HEADERS } from "./request-guard.ts";
import { compareRoutes } from "./routes/compare.ts";
import { costRoutes } from "./routes/cost.ts";
import { createEventsRoute } from "./routes/events.ts";
import { exportRoutes } from "./routes/export.ts";
import { pruneRoutes } from "./routes/prune.ts";
import { sentRoutes } from "./routes/sent.ts";
import { sessionRoutes } from "./routes/sessions.ts";

export interface AppDeps {
  service: SessionService;
  /** Host the server is bound to (for the Host-header check). */
  boundHost: string;
  /** Port the server listens on, when known (tests: null). */
  port: number | null;
  /** The port actually bound, once listening (`--port 0`): the Host check then enforces it. */
  boundPort?: () => number | null;
  /** Serves the built SPA (dist/web) — injected so tests can run without a build. */
  staticHandler?: (c: Context, path: string) => Promise<Response | null>;
}

export function createApp(deps: AppDeps) {
  const { service } = deps;

  const api = new Hono()
    .route("/", sessionRoutes(service))
    .route("/", costRoutes(service))
    .route("/", pruneRoutes(service))
    .route("/", sentRoutes(service))
    .route("/", compareRoutes(service))
    .route("/", exportRoutes(service))
    .route("/events", createEventsRoute(service.bus));

  const app = new Hono();

  // Refuse foreign Host headers (DNS rebinding) and other sites' API requests before anything else runs
  // (request-guard.ts). A real HTTP request (node-server's env.incoming) is judged by the Host it sent; an
  // in-process app.request (the route tests) by its URL's.
  app.use("*", async (c, next) => {
    const incoming: unknown = Reflect.get(c.env ?? {}, "incoming");
    const host = c.req.header("host") ?? (incoming === undefined ? new URL(c.req.url).host : undefined);
    const refused = refusalOf(
      {
        path: c.req.path,
        host,
        secFetchSite: c.req.header("sec-fetch-site"),
        origin: c.req.header("origin"),
      },
      deps.boundHost,
      deps.boundPort?.() ?? deps.port,
    );
    if (refused) {
      for (const [name, value] of Object.entries(REFUSAL_HEADERS)) c.header(name, value);
      return c.json(errorBody(refused), 403);
    }
    await next();
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) c.header(name, value);
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

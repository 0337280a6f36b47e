// The HTTP shell: Host check, JSON errors, the API routes and the static SPA.
// createApp(deps) is pure wiring — no file system or process access here — so route tests use app.request.

import type { Context } from "hono";
import { Hono } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { ParseIssue, SessionSummary } from "../shared/session.ts";
import { buildExportHtml, buildIssueMarkdown, exportFileName } from "./export/write-export.ts";
import { isAllowedHost } from "./http/host-check.ts";
import { createEventsRoute } from "./routes/events.ts";
import type { SessionService } from "./session-service.ts";

export interface AppDeps {
  service: SessionService;
  /** Host the server is bound to (for the Host-header check). */
  boundHost: string;
  /** Port the server listens on, when known (tests: null). */
  port: number | null;
  /** Serves the built SPA (dist/web) — injected so tests can run without a build. */
  staticHandler?: (c: Context, path: string) => Promise<Response | null>;
}

export interface ApiError {
  error: { code: string; message: string; issues?: ParseIssue[] };
}

function errorBody(code: string, message: string, issues?: ParseIssue[]): ApiError {
  return issues ? { error: { code, message, issues } } : { error: { code, message } };
}

function toStatus(n: number): ContentfulStatusCode {
  return n === 404 || n === 400 || n === 403 || n === 422 || n === 503 ? n : 500;
}

export function createApp(deps: AppDeps) {
  const { service } = deps;

  const api = new Hono()
    .get("/state", (c) => c.json(service.stateInfo()))
    .get("/sessions", (c) => {
      const { sessions, issues } = service.listSessions();
      return c.json({ sessions, issues } satisfies { sessions: SessionSummary[]; issues: ParseIssue[] });
    })
    .get("/sessions/:agent/:session/report", (c) => {
      const r = service.runReport(c.req.param("agent"), c.req.param("session"));
      if ("error" in r) return c.json(errorBody(r.error.code, r.error.message), toStatus(r.error.status));
      return c.json(r.value);
    })
    .get("/sessions/:agent/:session/map", (c) => {
      const r = service.contextMap(c.req.param("agent"), c.req.param("session"));
      if ("error" in r) return c.json(errorBody(r.error.code, r.error.message), toStatus(r.error.status));
      return c.json(r.value);
    })
    .get("/sessions/:agent/:session/truncation", (c) => {
      const r = service.truncation(c.req.param("agent"), c.req.param("session"), c.req.query());
      if ("error" in r) return c.json(errorBody(r.error.code, r.error.message), toStatus(r.error.status));
      return c.json(r.value);
    })
    .get("/sessions/:agent/:session/prune", (c) => {
      const r = service.prune(c.req.param("agent"), c.req.param("session"), c.req.queries());
      if ("error" in r) return c.json(errorBody(r.error.code, r.error.message), toStatus(r.error.status));
      return c.json(r.value);
    })
    .get("/sessions/:agent/:session/prune/call", (c) => {
      const r = service.pruneCall(c.req.param("agent"), c.req.param("session"), c.req.queries());
      if ("error" in r) return c.json(errorBody(r.error.code, r.error.message), toStatus(r.error.status));
      return c.json(r.value);
    })
    .get("/sessions/:agent/:session/prune/preview", (c) => {
      const r = service.prunePreview(c.req.param("agent"), c.req.param("session"), c.req.queries());
      if ("error" in r) return c.json(errorBody(r.error.code, r.error.message), toStatus(r.error.status));
      return c.json(r.value);
    })
    .get("/sessions/:agent/:session/cost", (c) => {
      const r = service.cost(c.req.param("agent"), c.req.param("session"));
      if ("error" in r) return c.json(errorBody(r.error.code, r.error.message), toStatus(r.error.status));
      return c.json(r.value);
    })
    .get("/sessions/:agent/:session/clock", (c) => {
      const r = service.clock(c.req.param("agent"), c.req.param("session"), Date.now());
      if ("error" in r) return c.json(errorBody(r.error.code, r.error.message), toStatus(r.error.status));
      return c.json(r.value);
    })
    .get("/sessions/:agent/:session/export", (c) => {
      // Redacted unless explicitly asked otherwise (issue 8: redaction is the default for exports).
      const redact = c.req.query("redact") !== "0";
      const r = buildExportHtml(service, c.req.param("agent"), c.req.param("session"), { redact });
      if ("error" in r) return c.json(errorBody(r.error.code, r.error.message), toStatus(r.error.status));
      return c.body(r.html, 200, {
        "Content-Type": "text/html; charset=utf-8",
        "Content-Disposition": `attachment; filename="${exportFileName(c.req.param("session"), redact)}"`,
        "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; img-src data:; sandbox",
      });
    })
    .get("/sessions/:agent/:session/issue.md", (c) => {
      const redact = c.req.query("redact") !== "0";
      const r = buildIssueMarkdown(service, c.req.param("agent"), c.req.param("session"), { redact });
      if ("error" in r) return c.json(errorBody(r.error.code, r.error.message), toStatus(r.error.status));
      return c.body(r.markdown, 200, { "Content-Type": "text/markdown; charset=utf-8" });
    })
    .get("/cost", (c) => c.json(service.costAll(c.req.query("archived") !== "0")))
    .route("/events", createEventsRoute(service.bus));

  const app = new Hono();

  // Refuse foreign Host headers (DNS rebinding) before anything else runs.
  app.use("*", async (c, next) => {
    const host = c.req.header("host") ?? new URL(c.req.url).host;
    if (!isAllowedHost(host, deps.boundHost, deps.port)) {
      return c.json(errorBody("forbidden-host", `Host ${JSON.stringify(host)} is not allowed`), 403);
    }
    await next();
    c.header("X-Content-Type-Options", "nosniff");
    c.header("Referrer-Policy", "no-referrer");
  });

  app.onError((err, c) => {
    process.stderr.write(`clawscope: ${err.stack ?? String(err)}\n`);
    return c.json(errorBody("internal", err.message), 500);
  });

  const routes = app.route("/api", api);

  // Unknown /api/* is a JSON 404, never the SPA.
  app.all("/api/*", (c) => c.json(errorBody("not-found", `no API route ${c.req.path}`), 404));

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

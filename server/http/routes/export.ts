// The share routes (issue 8): the self-contained HTML report as a download, and the "Copy as issue" Markdown.
// Both are redacted unless the query says `redact=0` (redaction is the default for exports).

import { Hono } from "hono";
import { errorBody } from "../../../shared/result.ts";
import { buildExportHtml, buildIssueMarkdown, exportFileName } from "../../export/write-export.ts";
import type { SessionService } from "../../service/session-service.ts";
import { queryOne } from "../query.ts";

export function exportRoutes(service: SessionService) {
  return new Hono()
    .get("/sessions/:agent/:session/export", queryOne(["redact"]), (c) => {
      const redact = c.req.valid("query").redact !== "0";
      const r = buildExportHtml(service, c.req.param("agent"), c.req.param("session"), { redact });
      if (!r.ok) return c.json(errorBody(r.error), r.error.status);
      return c.body(r.value, 200, {
        "Content-Type": "text/html; charset=utf-8",
        "Content-Disposition": `attachment; filename="${exportFileName(c.req.param("session"), redact)}"`,
        "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; img-src data:; sandbox",
      });
    })
    .get("/sessions/:agent/:session/issue.md", queryOne(["redact"]), (c) => {
      const redact = c.req.valid("query").redact !== "0";
      const r = buildIssueMarkdown(service, c.req.param("agent"), c.req.param("session"), { redact });
      if (!r.ok) return c.json(errorBody(r.error), r.error.status);
      return c.body(r.value, 200, { "Content-Type": "text/markdown; charset=utf-8" });
    });
}

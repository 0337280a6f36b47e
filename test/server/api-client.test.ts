// The web's typed client end to end, without a browser: hc<AppType> over app.request against the demo state
// dir. Type level: each route's 200 body is the shared DTO itself (no cast anywhere on the way) and its error
// statuses carry the ErrorBody. Run time: the client gets the service's exact DTO, and an error response
// becomes an ApiError with the server's code.

import path from "node:path";
import { fileURLToPath } from "node:url";
import type { InferResponseType } from "hono/client";
import { describe, expect, expectTypeOf, it } from "vitest";
import { createApp } from "../../server/http/app.ts";
import { createSessionService } from "../../server/service/session-service.ts";
import type { ContextMapDTO } from "../../shared/context-map.ts";
import type { PruneReplayDTO } from "../../shared/prune.ts";
import type { ErrorBody } from "../../shared/result.ts";
import type { TruncationReportDTO } from "../../shared/truncation.ts";
import { ApiError, body, createClient, sessionParam } from "../../web/api/client.ts";

const here = path.dirname(fileURLToPath(import.meta.url));
const DEMO = path.resolve(here, "..", "..", "server", "demo", "state");
const AGENT = "main";
const SESSION = "bc255ab3-b341-464a-a811-4d1115e16ed8";

const service = createSessionService({ stateDir: DEMO, demo: true, reason: "test" });
const app = createApp({ service, boundHost: "127.0.0.1", port: 4470 });
const { api } = createClient("http://127.0.0.1:4470", async (input, init) => app.request(input, init));
const session = api.sessions[":agent"][":session"];

describe("typed API client", () => {
  it("types each route's 200 body as its shared DTO and its error statuses as the ErrorBody", () => {
    expectTypeOf<InferResponseType<typeof session.prune.$get, 200>>().toEqualTypeOf<PruneReplayDTO>();
    expectTypeOf<InferResponseType<typeof session.prune.$get, 404>>().toEqualTypeOf<ErrorBody>();
    expectTypeOf<InferResponseType<typeof session.prune.$get, 400>>().toEqualTypeOf<ErrorBody>();
    // A recursive DTO (MapNode.children) keeps its type too.
    expectTypeOf<InferResponseType<typeof session.map.$get, 200>>().toEqualTypeOf<ContextMapDTO>();
    expectTypeOf<
      InferResponseType<typeof session.truncation.$get, 200>
    >().toEqualTypeOf<TruncationReportDTO>();
  });

  it("gets the service's DTO, what-if query included", async () => {
    const param = sessionParam(AGENT, SESSION);
    const replay = await body(await session.prune.$get({ ...param, query: { ttl: "1m", calls: "summary" } }));
    expectTypeOf(replay).toEqualTypeOf<PruneReplayDTO>();
    const direct = service.prune(AGENT, SESSION, { ttl: "1m", calls: "summary" });
    if (!direct.ok) throw new Error(direct.error.message);
    expect(replay).toEqual(direct.value);
    expect(replay.settings.ttlMs).toBe(60_000);
  });

  it("turns an error response into an ApiError with the server's status and code", async () => {
    const missing = session.report.$get(sessionParam(AGENT, "no-such-session"));
    await expect(missing).rejects.toBeInstanceOf(ApiError);
    await expect(missing).rejects.toMatchObject({ status: 404 });
    const bad = session.prune.call.$get({ ...sessionParam(AGENT, SESSION), query: {} });
    await expect(bad).rejects.toMatchObject({
      status: 400,
      code: "bad-request",
      message: "call (index) is required",
    });
  });

  it("encodes agent and session ids as path segments", async () => {
    const url = session.report.$url(sessionParam("a/b", "c d?"));
    expect(url.pathname).toBe("/api/sessions/a%2Fb/c%20d%3F/report");
  });
});

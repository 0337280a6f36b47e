// Who may talk to `serve` (issue 20): a non-loopback bind needs --allow-remote (then a loud warning with the real
// address); API requests from another site (Sec-Fetch-Site, Origin) are refused — a web page could otherwise keep
// the server busy with `<img src=/api/cost>`; a request without Host is refused; with `--port 0` the Host check
// uses the port actually bound; only valid 127.x.y.z addresses pass; 403s carry the security headers too.

import net from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../../server/http/app.ts";
import { isAllowedHost } from "../../server/http/host-check.ts";
import { createSessionService } from "../../server/service/session-service.ts";
import { serveOptions } from "../../server/shell/config.ts";
import { type RunningServer, startServer } from "../e2e/harness.ts";
import { runCli } from "../helpers/cli.ts";

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const DEMO = path.join(REPO, "server/demo/state");
const at = Object.freeze({ env: {}, homedir: "/home/u" });

describe("non-loopback binds", () => {
  it("serveOptions refuses a non-loopback --host without --allow-remote", () => {
    for (const host of ["0.0.0.0", "::", "192.168.1.5", "example.com", "127.0.0.1.evil.example"]) {
      expect(() => serveOptions({ host }, at), host).toThrow(/--allow-remote/);
      expect(serveOptions({ host, allowRemote: true }, at)).toMatchObject({ host, allowRemote: true });
    }
    for (const host of ["127.0.0.1", "127.4.5.6", "localhost", "::1"])
      expect(serveOptions({ host }, at).host, host).toBe(host);
    expect(() => serveOptions({}, { env: { CLAWSCOPE_HOST: "0.0.0.0" }, homedir: "/h" })).toThrow(
      /--allow-remote/,
    );
  });

  it("`serve --host 0.0.0.0` exits 2 naming --allow-remote; with it, warns loudly with the real address", async () => {
    const refused = runCli(["serve", "--demo", "--host", "0.0.0.0", "--port", "0", "--no-open"]);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toMatch(/0\.0\.0\.0 is not a loopback address.*--allow-remote/s);
    const server = await startServer(["--demo", "--host", "0.0.0.0", "--allow-remote"]);
    try {
      const port = new URL(server.url).port;
      await new Promise((r) => setTimeout(r, 200));
      expect(server.stderr()).toMatch(
        new RegExp(`WARNING.*0\\.0\\.0\\.0:${port}.*every network interface`, "s"),
      );
    } finally {
      await server.stop();
    }
  }, 120_000);
});

describe("requests from elsewhere (route level)", () => {
  const service = createSessionService({ stateDir: DEMO, demo: true, reason: "test" });
  const app = createApp({ service, boundHost: "127.0.0.1", port: 4470 });
  const get = (headers: Record<string, string>, url = "/api/sessions") =>
    app.request(url, { headers: { host: "127.0.0.1:4470", ...headers } });

  it("refuses cross-site and same-site API requests; same-origin and direct ones pass", async () => {
    for (const site of ["cross-site", "same-site"]) {
      const res = await get({ "sec-fetch-site": site });
      expect(res.status, site).toBe(403);
      expect(await res.json()).toMatchObject({ error: { code: "forbidden-site" } });
    }
    for (const site of ["same-origin", "none"])
      expect((await get({ "sec-fetch-site": site })).status, site).toBe(200);
    // The SPA itself may be opened from a link on another site (a top-level navigation).
    expect((await get({ "sec-fetch-site": "cross-site" }, "/")).status).not.toBe(403);
  });

  it("refuses a foreign or opaque Origin; the server's own passes", async () => {
    for (const origin of ["http://evil.example", "null", "http://127.0.0.1:9999", "https://127.0.0.1:4470"]) {
      const res = await get({ origin });
      expect(res.status, origin).toBe(403);
      expect(await res.json()).toMatchObject({ error: { code: "forbidden-origin" } });
    }
    expect((await get({ origin: "http://127.0.0.1:4470" })).status).toBe(200);
    expect((await get({ origin: "http://localhost:4470", host: "localhost:4470" })).status).toBe(200);
  });

  it("403s carry the security headers", async () => {
    for (const res of [await get({ host: "evil.example" }), await get({ origin: "http://evil.example" })]) {
      expect(res.status).toBe(403);
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
      expect(res.headers.get("referrer-policy")).toBe("no-referrer");
      expect(res.headers.get("cache-control")).toBe("no-store");
    }
  });

  it("accepts only valid 127.x.y.z octets", () => {
    expect(isAllowedHost("127.255.0.1:4470", "127.0.0.1", 4470)).toBe(true);
    for (const host of ["127.256.0.1", "127.0.0.999", "127.00.0.1", "127.0.0.01:4470"])
      expect(isAllowedHost(host, "127.0.0.1", 4470), host).toBe(false);
  });
});

/** One raw HTTP exchange (HTTP/1.0 without Host cannot be sent with fetch). */
function rawRequest(port: number, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1");
    let data = "";
    socket.on("data", (d) => {
      data += d.toString();
    });
    socket.on("end", () => resolve(data));
    socket.on("error", reject);
    socket.write(request);
  });
}

describe("a real server on --port 0", () => {
  let server: RunningServer;
  let port: number;
  beforeAll(async () => {
    server = await startServer(["--demo"]);
    port = Number(new URL(server.url).port);
  }, 120_000);
  afterAll(() => server?.stop());

  it("refuses a Host naming another port (the bound port is enforced)", async () => {
    const other = await rawRequest(
      port,
      `GET /api/sessions HTTP/1.1\r\nHost: 127.0.0.1:${port + 1}\r\nConnection: close\r\n\r\n`,
    );
    expect(other).toMatch(/^HTTP\/1\.1 403/);
    const own = await rawRequest(
      port,
      `GET /api/sessions HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n\r\n`,
    );
    expect(own).toMatch(/^HTTP\/1\.1 200/);
  });

  it("refuses an HTTP/1.0 request without Host", async () => {
    const res = await rawRequest(port, "GET /api/sessions HTTP/1.0\r\n\r\n");
    expect(res).toMatch(/^HTTP\/1\.[01] (400|403)/);
    const absolute = await rawRequest(port, `GET http://evil.example:${port}/api/sessions HTTP/1.0\r\n\r\n`);
    expect(absolute).toMatch(/^HTTP\/1\.[01] (400|403)/);
  });
});

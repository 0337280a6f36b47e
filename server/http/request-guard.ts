// Which requests the server answers at all (issue 20), checked before any route runs. The server has no login:
// what keeps other machines and other web sites out is that it listens on loopback and refuses
// - a Host that is not this server (DNS rebinding: evil.example resolving to 127.0.0.1), or no Host at all
//   (HTTP/1.0, an absolute request target): a browser always sends one;
// - API requests a browser marks as coming from another site (`Sec-Fetch-Site: cross-site | same-site`) or
//   whose Origin is not the server's own: a page elsewhere could otherwise keep it busy (`<img src=/api/cost>`)
//   or read answers through a misconfigured proxy. The SPA's own requests are same-origin; a top-level
//   navigation to the SPA from a link elsewhere stays allowed (only /api/* is checked).
// Every answer, the 403s included, carries the security headers.

import { isAllowedHost } from "./host-check.ts";

export interface RequestFacts {
  path: string;
  /** The Host header as received; undefined when the request had none. */
  host: string | undefined;
  secFetchSite: string | undefined;
  origin: string | undefined;
}

export interface Refusal {
  code: "forbidden-host" | "forbidden-site" | "forbidden-origin";
  message: string;
}

/** On every answer. */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "no-referrer",
};

/** On a refusal too: never cached (the same URL is fine from the right origin). */
export const REFUSAL_HEADERS: Readonly<Record<string, string>> = {
  ...SECURITY_HEADERS,
  "Cache-Control": "no-store",
};

/** Why the request is refused (403), or null. `port`: the port actually bound, when known. */
export function refusalOf(req: RequestFacts, boundHost: string, port: number | null): Refusal | null {
  if (req.host === undefined)
    return { code: "forbidden-host", message: "a request without a Host header is not allowed" };
  if (!isAllowedHost(req.host, boundHost, port))
    return { code: "forbidden-host", message: `Host ${JSON.stringify(req.host)} is not allowed` };
  if (req.path !== "/api" && !req.path.startsWith("/api/")) return null;
  const site = req.secFetchSite?.toLowerCase();
  if (site === "cross-site" || site === "same-site")
    return {
      code: "forbidden-site",
      message: `API requests from another site are not allowed (Sec-Fetch-Site: ${site})`,
    };
  if (req.origin !== undefined && req.origin.toLowerCase() !== `http://${req.host.trim().toLowerCase()}`)
    return { code: "forbidden-origin", message: `Origin ${JSON.stringify(req.origin)} is not this server` };
  return null;
}

// DNS-rebinding guard: only loopback names (and the host we were explicitly bound to) may address the server.
// A page on evil.example that resolves to 127.0.0.1 sends `Host: evil.example` and gets 403.

import { isLoopbackName } from "../../shared/loopback.ts";

/** Split `name:port` / `[v6]:port` into a lower-cased name and an optional port. */
export function parseHostHeader(value: string): { name: string; port: string | null } | null {
  const v = value.trim().toLowerCase();
  if (v === "") return null;
  if (v.startsWith("[")) {
    const end = v.indexOf("]");
    if (end < 0) return null;
    const rest = v.slice(end + 1);
    if (rest !== "" && !/^:\d+$/.test(rest)) return null;
    return { name: v.slice(0, end + 1), port: rest === "" ? null : rest.slice(1) };
  }
  const parts = v.split(":");
  if (parts.length > 2) return null;
  const [name, port] = parts;
  if (!name || (port !== undefined && !/^\d+$/.test(port))) return null;
  return { name, port: port ?? null };
}

/**
 * Allowed: loopback names, any 127.x.y.z, and the bound host unless it is a wildcard address.
 * When the server knows its port, a Host naming another port is refused too.
 */
export function isAllowedHost(
  hostHeader: string | undefined,
  boundHost: string,
  port: number | null,
): boolean {
  if (hostHeader === undefined) return false;
  const parsed = parseHostHeader(hostHeader);
  if (!parsed) return false;
  if (port !== null && parsed.port !== null && parsed.port !== String(port)) return false;
  const bound = boundHost.toLowerCase();
  if (isLoopbackName(parsed.name)) return true;
  if (
    bound !== "0.0.0.0" &&
    bound !== "::" &&
    bound !== "" &&
    (parsed.name === bound || parsed.name === `[${bound}]`)
  )
    return true;
  return false;
}

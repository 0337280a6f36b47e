// Loopback names and addresses: what only this machine can reach. One definition for the `--host` check
// (server/shell/config.ts: a non-loopback bind needs --allow-remote) and the Host-header check
// (server/http/host-check.ts). Here, not in server/http, so `clawscope --help` loads no HTTP code.

const LOOPBACK_NAMES = new Set(["localhost", "127.0.0.1", "[::1]", "::1"]);

/** One decimal octet as an address is written: 0–255, no leading zero (`127.00.0.1` is not a canonical name). */
function isOctet(part: string): boolean {
  return /^(0|[1-9]\d{0,2})$/.test(part) && Number(part) <= 255;
}

/** `127.x.y.z` with valid octets: the IPv4 loopback block. */
export function isLoopbackIpv4(name: string): boolean {
  const parts = name.split(".");
  return parts.length === 4 && parts[0] === "127" && parts.every(isOctet);
}

/** A name or address that only this machine can reach (a `--host` that needs no --allow-remote). */
export function isLoopbackName(name: string): boolean {
  const n = name.toLowerCase();
  return LOOPBACK_NAMES.has(n) || isLoopbackIpv4(n);
}

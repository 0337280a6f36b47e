import { describe, expect, it } from "vitest";
import { isAllowedHost, parseHostHeader } from "../../server/http/host-check.ts";

describe("parseHostHeader", () => {
  it("splits names, ports and IPv6 literals", () => {
    expect(parseHostHeader("LocalHost:4470")).toEqual({ name: "localhost", port: "4470" });
    expect(parseHostHeader("[::1]:80")).toEqual({ name: "[::1]", port: "80" });
    expect(parseHostHeader("127.0.0.1")).toEqual({ name: "127.0.0.1", port: null });
    expect(parseHostHeader("a:b:c")).toBeNull();
    expect(parseHostHeader("host:port")).toBeNull();
    expect(parseHostHeader("")).toBeNull();
  });
});

describe("isAllowedHost", () => {
  it("accepts loopback names on the right port", () => {
    expect(isAllowedHost("localhost:4470", "127.0.0.1", 4470)).toBe(true);
    expect(isAllowedHost("127.0.0.1:4470", "127.0.0.1", 4470)).toBe(true);
    expect(isAllowedHost("[::1]:4470", "127.0.0.1", 4470)).toBe(true);
    expect(isAllowedHost("127.1.2.3:4470", "127.0.0.1", 4470)).toBe(true);
  });
  it("refuses foreign names (DNS rebinding) and other ports", () => {
    expect(isAllowedHost("evil.example:4470", "127.0.0.1", 4470)).toBe(false);
    expect(isAllowedHost("localhost.evil.example", "127.0.0.1", 4470)).toBe(false);
    expect(isAllowedHost("localhost:9999", "127.0.0.1", 4470)).toBe(false);
    expect(isAllowedHost(undefined, "127.0.0.1", 4470)).toBe(false);
  });
  it("accepts the explicitly bound host but never a wildcard", () => {
    expect(isAllowedHost("192.168.1.5:4470", "192.168.1.5", 4470)).toBe(true);
    expect(isAllowedHost("192.168.1.5:4470", "0.0.0.0", 4470)).toBe(false);
  });
});

// Serves the built SPA from dist/web. Any non-file path gets index.html (client-side routes such as
// /sessions/main/<id>). Paths are resolved inside the dist dir only.

import { readFile, stat } from "node:fs/promises";
import path from "node:path";
import type { Context } from "hono";

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".json": "application/json",
  ".ico": "image/x-icon",
  ".woff2": "font/woff2",
};

async function isFile(p: string): Promise<boolean> {
  try {
    return (await stat(p)).isFile();
  } catch {
    return false;
  }
}

export function createStaticHandler(distDir: string) {
  const root = path.resolve(distDir);
  return async (c: Context, requestPath: string): Promise<Response | null> => {
    let decoded: string;
    try {
      decoded = decodeURIComponent(requestPath);
    } catch {
      return null;
    }
    const candidate = path.resolve(root, `.${path.posix.normalize(`/${decoded}`)}`);
    const inside = candidate === root || candidate.startsWith(`${root}${path.sep}`);
    const file = inside && (await isFile(candidate)) ? candidate : path.join(root, "index.html");
    if (!(await isFile(file))) return null;
    const body = await readFile(file);
    const type = TYPES[path.extname(file)] ?? "application/octet-stream";
    const immutable = file.includes(`${path.sep}assets${path.sep}`);
    return c.body(body, 200, {
      "Content-Type": type,
      "Cache-Control": immutable ? "public, max-age=31536000, immutable" : "no-cache",
      ...(type.startsWith("text/html")
        ? {
            "Content-Security-Policy":
              "default-src 'self'; img-src 'self' data: blob:; style-src 'self' 'unsafe-inline'; connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'",
          }
        : {}),
    });
  };
}

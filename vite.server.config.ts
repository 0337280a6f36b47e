// The server + CLI build: server/main.ts → dist/server/main.js (the package's `bin`), with every `await import()`
// of the sources as its own chunk, so a command loads only what it runs. Vite's SSR build (rolldown) is the
// bundler already used for the SPA — no second build tool. Bare imports stay external (the SSR default): the
// dependencies are installed beside the package, better-sqlite3's native addon and js-tiktoken's rank files are
// resolved at run time from node_modules. `npm run build` runs this after the SPA build (vite.config.ts).

import { randomUUID } from "node:crypto";
import { defineConfig } from "vite";

export default defineConfig({
  publicDir: false,
  logLevel: "warn",
  build: {
    ssr: "server/main.ts",
    outDir: "dist/server",
    emptyOutDir: true,
    target: "node20",
    minify: false,
    sourcemap: false,
    reportCompressedSize: false,
    rollupOptions: {
      output: {
        format: "esm",
        entryFileNames: "main.js",
        chunkFileNames: "[name]-[hash].js",
        banner: (chunk) => (chunk.isEntry ? "#!/usr/bin/env node" : ""),
        // A warm `sessions --json` (server/cli/sessions-json.ts) loads one chunk besides main.js: every module of
        // its path in one file, not spread over the small chunks they share with the service (each module file
        // is a resolve, read, compile and link of its own on the start-up path).
        codeSplitting: {
          groups: [
            {
              name: "sessions-list",
              includeDependenciesRecursively: false,
              test: /server\/(cli\/sessions-json|service\/listing-(cache|inputs)|sources\/(discover|fs-safety|regular-file|jsonl\/(scan-store|sessions-json)))\.ts$/,
            },
          ],
        },
      },
    },
  },
  ssr: { target: "node" },
  // One id per build: the `sessions --json` cache (server/service/listing-cache.ts) keeps no listing a build
  // other than its own printed.
  define: { __CLAWSCOPE_BUILD__: JSON.stringify(randomUUID()) },
});

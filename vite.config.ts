import os from "node:os";
import path from "node:path";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vitest/config";

// One config for the SPA build (web/ → dist/web) and the test suite.
// Test projects: unit/server/golden run in Node; e2e drives the built app in real Chromium.
export default defineConfig({
  root: "web",
  plugins: [react()],
  build: { outDir: "../dist/web", emptyOutDir: true, chunkSizeWarningLimit: 2000 },
  server: { proxy: { "/api": "http://127.0.0.1:4470" } },
  test: {
    root: ".",
    // The CLI's scan cache ($XDG_CACHE_HOME/clawscope) of every state dir the tests read goes to a temp dir of
    // this run, never into the developer's ~/.cache (a test that checks the cache sets its own).
    env: { XDG_CACHE_HOME: path.join(os.tmpdir(), `clawscope-test-cache-${process.pid}`) },
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          root: ".",
          include: [
            "test/arch.test.ts",
            "test/consistency.test.ts",
            "test/unit/**/*.test.ts",
            "test/server/**/*.test.ts",
            "test/golden/**/*.test.ts",
          ],
          environment: "node",
          testTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: "e2e",
          root: ".",
          include: ["test/e2e/**/*.e2e.test.ts"],
          environment: "node",
          testTimeout: 120_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
    ],
  },
});

#!/usr/bin/env node
// The contributors' entry (`npm run cli`, the e2e and CLI tests): runs the TypeScript sources of server/main.ts
// through tsx's loader, so an edit needs no build. The published package's `bin` is the compiled
// dist/server/main.js (vite.server.config.ts); tsx is a dev dependency and never installed with it.
import { register } from "tsx/esm/api";

register();
await import("./main.ts");

#!/usr/bin/env node
// Entry point for `npx clawscope`, `npm start` and `npm run cli`: runs the TypeScript CLI through tsx's loader.
import { register } from "tsx/esm/api";

register();
await import("./main.ts");

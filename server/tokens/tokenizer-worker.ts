// The tokenizer worker thread (tokenizer.ts): its source and the shape of its replies.

/** One counted text of a worker reply. */
export interface WorkerReply {
  key: string;
  tokens: number;
}

// The worker is plain CommonJS evaluated from a string, so it runs the same under tsx, vitest and plain node
// (no TypeScript loader needed in the worker). It receives resolved module paths.
export const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const { Tiktoken } = require(workerData.lite);
const ranks = require(workerData.ranks);
const enc = new Tiktoken(ranks.default || ranks);
parentPort.on("message", (jobs) => {
  const out = [];
  for (const j of jobs) {
    let tokens = 0;
    for (const p of j.pieces) tokens += enc.encode(p, [], []).length;
    out.push({ key: j.key, tokens });
  }
  parentPort.postMessage(out);
});
`;

export function isReplyList(value: unknown): value is WorkerReply[] {
  return (
    Array.isArray(value) &&
    value.every(
      (v: unknown) =>
        typeof v === "object" &&
        v !== null &&
        "key" in v &&
        "tokens" in v &&
        typeof v.key === "string" &&
        typeof v.tokens === "number",
    )
  );
}

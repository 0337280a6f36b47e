// The model-context list of each open session (model/context-messages.ts, transcript.md §7), continued over
// appended entries (issue 18 "Live"): the list is a fold of the active branch through ContextBuilder, so a
// transcript that continues the previous one (model/transcript-growth.ts) pushes only its new branch entries —
// the result equals buildContextMessages of the whole transcript (test/unit/append-views.test.ts).

import { ContextBuilder } from "../model/context-messages.ts";
import type { ContextMessage, LoadedSession, Transcript } from "../model/session.ts";
import { continuesTranscript } from "../model/transcript-growth.ts";
import { KeptRuns } from "./kept-runs.ts";

class ListRun {
  private readonly builder = new ContextBuilder();
  /** Active-branch entries pushed so far. */
  private pushed = 0;

  constructor(private transcript: Transcript) {
    this.advance();
  }

  extend(next: Transcript): boolean {
    if (!continuesTranscript(this.transcript, next)) return false;
    this.transcript = next;
    this.advance();
    return true;
  }

  private advance(): void {
    const t = this.transcript;
    for (; this.pushed < t.activeBranch.length; this.pushed++) {
      const entry = t.entries[t.activeBranch[this.pushed] ?? -1];
      if (entry) this.builder.push(entry);
    }
  }

  messages(): ContextMessage[] {
    return this.builder.messages.slice();
  }
}

export class ContextLists {
  private readonly kept = new KeptRuns<ListRun>();

  /** buildContextMessages(s.transcript), continuing the session's previous list when the transcript grew. */
  listFor(s: LoadedSession): ContextMessage[] {
    const key = `${s.summary.agentId}\u0000${s.summary.sessionId}`;
    return this.kept
      .runFor(
        key,
        s.transcript,
        (run) => run.extend(s.transcript),
        () => new ListRun(s.transcript),
      )
      .messages();
  }
}

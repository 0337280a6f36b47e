// 2026.7.1 caps a `read` result live, on its first send only (spec pruning.md §3): its first wire form can
// differ from the stored text, later calls replay the stored form. The replay flags those first sends.

import type { PruneAlgorithm } from "../../../shared/prune.ts";
import type { PrunerList } from "./pruner-list.ts";

export class FirstSends {
  /** Tool results already sent once. */
  private readonly seen = new Set<number>();
  /** Tool results of the current list looked at so far, and that list's generation. */
  private read = 0;
  private generation: number | null = null;

  /** The results first sent since the previous call whose wire form may differ (null: none); flags say which. */
  since(list: PrunerList, algorithm: PruneAlgorithm, flags: string[]): Set<number> | null {
    if (this.generation !== list.generation) {
      this.generation = list.generation;
      this.read = 0;
    }
    let liveForm: Set<number> | null = null;
    const trs = list.toolResults;
    for (; this.read < trs.length; this.read++) {
      const tr = trs[this.read];
      if (!tr || this.seen.has(tr.entryIndex)) continue;
      this.seen.add(tr.entryIndex);
      if (algorithm === "2026.7" && tr.info.liveCapped) {
        liveForm ??= new Set<number>();
        liveForm.add(tr.entryIndex);
        flags.push(
          `read result ${tr.toolCallId} was capped live: its first wire form can differ from the stored text (2026.7; later calls replay the stored form)`,
        );
      }
    }
    return liveForm;
  }
}

// Two sessions — or one session as run and under a what-if — side by side (issue 16): `compare --a REF --b REF
// [what-if flags for b] --json`, GET /api/compare. Composition by stable map path (the groups and named tiles of
// the context map, conversation tiles summed per kind), cost and cache writes, pruning rounds.

/** What b changes against the session as run (only for a what-if of one session). */
export interface CompareWhatIfDTO {
  /** Pruning replay parameters (shared/prune-params.ts keys), as given. */
  prune: Record<string, string | string[]>;
  maxPerFile: number | null;
  maxTotal: number | null;
  retention: "none" | "short" | "long" | null;
}

export interface CompareSideDTO {
  agentId: string;
  sessionId: string;
  sessionKey: string | null;
  /** "as run", or the what-if in words. */
  label: string;
  family: "2026.3" | "2026.7" | "2026.9";
  /** Agent calls of the session (the replay's). */
  calls: number;
  /** USD; null when unknown (unpriced, or a what-if whose cost is not modelled — see costBasis). */
  costUsd: number | null;
  /** How costUsd was made: the recorded/priced calls, or the counterfactual it comes from. */
  costBasis: string;
  /** Σ cacheWrite tokens; null when a what-if does not model them. */
  tokensWritten: number | null;
  tokensRead: number | null;
  /** Pruning rounds of the replay (as configured, or under the what-if). */
  pruningRounds: number;
  /** Σ chars of the context map's tiles (latest state, tool results as sent at the last call). */
  trackedChars: number;
  groups: { path: string; chars: number }[];
  /** Spend per cause (each call's cache verdict); null for a what-if side (not modelled per call). */
  causes: CompareCauseDTO[] | null;
}

/** One cause of a side's spend: a row of the cost report's `breakdown` (issue 14 §2). */
export interface CompareCauseDTO {
  cause: string;
  calls: number;
  /** Σ input + output + cacheRead + cacheWrite of the calls. */
  tokens: number;
  /** Σ known call costs (USD); Σ over the rows = the side's costUsd. */
  costUsd: number;
  unpricedCalls: number;
}

export interface CompareCauseDiffDTO {
  cause: string;
  /** null: that side has no breakdown (a what-if). */
  aUsd: number | null;
  bUsd: number | null;
}

export interface CompareGroupDiffDTO {
  path: string;
  aChars: number;
  bChars: number;
}

export interface CompareDTO {
  a: CompareSideDTO;
  b: CompareSideDTO;
  whatIf: CompareWhatIfDTO | null;
  diff: {
    /** b − a; null when either is unknown. */
    costUsd: number | null;
    tokensWritten: number | null;
    groups: CompareGroupDiffDTO[];
    causes: CompareCauseDiffDTO[];
  };
  notes: string[];
}

// The advisor's cards (issue 14 §4): per agent, today's setting, the recommendation with the config snippet to
// paste, what it would have saved over the analysed period, and the numbers behind it. The same cards on the
// overview page and (for the session's agent) on the session's Cache & cost tab.

import { useQuery } from "@tanstack/react-query";
import { fmtUsd } from "../../../shared/format.ts";
import type { AdviceDTO } from "../../../shared/overview.ts";
import { overviewQuery } from "../../api/queries.ts";
import { useRedactor } from "../../ui/use-redact.ts";

const KIND_TITLE: Record<AdviceDTO["kind"], string> = {
  "cache-retention": "Cache retention / keep-warm",
  "keep-warm-heartbeat": "Keep-warm heartbeat",
  "pruning-ttl": "Pruning ttl vs cache lifetime",
  "bootstrap-file": "Bootstrap file",
  "dm-scope": "One session per chat",
};

/** `— { … }` at the end of a recommendation is its config snippet. */
function splitSnippet(recommended: string): { text: string; snippet: string | null } {
  const at = recommended.indexOf(" — {");
  return at < 0
    ? { text: recommended, snippet: null }
    : { text: recommended.slice(0, at), snippet: recommended.slice(at + 3) };
}

/** Costliest advice first: what would have saved the most, then the rest in their order (stable). */
export function byPayoff(advice: readonly AdviceDTO[]): AdviceDTO[] {
  const pay = (a: AdviceDTO) => (a.savingsUsd !== null && a.savingsUsd > 0 ? a.savingsUsd : 0);
  return [...advice].sort((a, b) => pay(b) - pay(a));
}

/**
 * `lead`: how many cards to show open to view (the overview: the three that pay most); the rest wait behind one
 * "N more recommendations" line, so a state dir with many agents does not push the spend chart off the screen.
 */
export function AdviceCards({ advice, lead }: { advice: readonly AdviceDTO[]; lead?: number }) {
  if (advice.length === 0) return null;
  const ranked = byPayoff(advice);
  const shown = lead === undefined ? ranked : ranked.slice(0, lead);
  const rest = lead === undefined ? [] : ranked.slice(lead);
  return (
    <div className="advice-cards" data-testid="advice-cards">
      {shown.map((a) => (
        <AdviceCard key={`${a.kind}/${a.agentId}`} a={a} />
      ))}
      {rest.length > 0 ? (
        <details className="advice-more" data-testid="advice-more">
          <summary>
            {rest.length} more recommendation{rest.length === 1 ? "" : "s"}
          </summary>
          {rest.map((a) => (
            <AdviceCard key={`${a.kind}/${a.agentId}`} a={a} />
          ))}
        </details>
      ) : null}
    </div>
  );
}

function AdviceCard({ a }: { a: AdviceDTO }) {
  const r = useRedactor();
  const { text, snippet } = splitSnippet(a.recommended);
  return (
    <details className="card advice-card" data-testid={`advice-${a.kind}-${a.agentId}`}>
      <summary>
        <strong>{KIND_TITLE[a.kind]}</strong> <span className="badge badge-agent">{r.agent(a.agentId)}</span>{" "}
        {text}
        {a.savingsUsd !== null && a.savingsUsd > 0 ? (
          <span className="badge badge-ok" data-testid="advice-savings">
            would have saved {fmtUsd(a.savingsUsd)}
          </span>
        ) : null}
      </summary>
      <p className="small">Today: {a.current}</p>
      {snippet ? (
        <pre className="text-block" data-testid="advice-snippet">
          {snippet}
        </pre>
      ) : null}
      <ul className="small muted">
        {a.evidence.map((e) => (
          <li key={e}>{e}</li>
        ))}
      </ul>
    </details>
  );
}

/** The cards of one agent (the session page), from the overview of that agent. */
export function AgentAdviceCards({ agentId }: { agentId: string }) {
  const q = useQuery(overviewQuery({ agent: agentId, archived: "1" }));
  return <AdviceCards advice={q.data?.overview.advice ?? []} />;
}

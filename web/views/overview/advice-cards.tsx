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
};

/** `— { … }` at the end of a recommendation is its config snippet. */
function splitSnippet(recommended: string): { text: string; snippet: string | null } {
  const at = recommended.indexOf(" — {");
  return at < 0
    ? { text: recommended, snippet: null }
    : { text: recommended.slice(0, at), snippet: recommended.slice(at + 3) };
}

export function AdviceCards({ advice }: { advice: readonly AdviceDTO[] }) {
  const r = useRedactor();
  if (advice.length === 0) return null;
  return (
    <div className="advice-cards" data-testid="advice-cards">
      {advice.map((a) => {
        const { text, snippet } = splitSnippet(a.recommended);
        return (
          <details
            key={`${a.kind}/${a.agentId}`}
            className="card advice-card"
            data-testid={`advice-${a.kind}-${a.agentId}`}
          >
            <summary>
              <strong>{KIND_TITLE[a.kind]}</strong>{" "}
              <span className="badge badge-agent">{r.agent(a.agentId)}</span> {text}
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
      })}
    </div>
  );
}

/** The cards of one agent (the session page), from the overview of that agent. */
export function AgentAdviceCards({ agentId }: { agentId: string }) {
  const q = useQuery(overviewQuery({ agent: agentId, archived: "1" }));
  return <AdviceCards advice={q.data?.overview.advice ?? []} />;
}

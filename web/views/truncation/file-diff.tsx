// What the caps dropped from one file: the source text with dropped ranges struck through, and the injected
// text with OpenClaw's markers highlighted. All text is untrusted file content: React text nodes only.

import type { ReactNode } from "react";
import { fmtInt } from "../../../shared/format.ts";
import type { TruncationFileDTO } from "../../../shared/truncation.ts";
import { HIDDEN_NOTICE } from "../../ui/redact.ts";
import { useRedactor } from "../../ui/use-redact.ts";

export function FileDiff({ file }: { file: TruncationFileDTO }) {
  const r = useRedactor();
  const sim = file.simulation;
  if (!sim)
    return (
      <div className="card" data-testid="file-diff">
        <h3>{r.file(file.name)}</h3>
        <p className="muted">
          The file is not readable now, so the dropped text cannot be shown. {r.sentence(file.note ?? "")}
        </p>
      </div>
    );
  const pieces: { from: number; node: ReactNode }[] = [];
  for (const s of sim.segments)
    if ((s.kind === "kept-head" || s.kind === "kept-tail") && s.sourceFrom !== undefined)
      pieces.push({ from: s.sourceFrom, node: <span className="diff-keep">{s.text}</span> });
  for (const d of sim.dropped)
    pieces.push({
      from: d.from,
      node: (
        <span className="diff-del" title={`dropped chars ${fmtInt(d.from)}–${fmtInt(d.to)}`}>
          {d.text}
        </span>
      ),
    });
  pieces.sort((a, b) => a.from - b.from);
  return (
    <div className="card" data-testid="file-diff">
      <h3>
        {r.file(file.name)}: {fmtInt(sim.rawChars)} → {fmtInt(sim.injectedChars)} chars
      </h3>
      <p className="small muted">
        {sim.truncated
          ? `trimmed to ${fmtInt(sim.trimCap)} (head ${fmtInt(sim.headChars)} + tail ${fmtInt(sim.tailChars)})`
          : "not truncated"}
        {sim.digest
          ? ` · AGENTS.md policy digest: ${sim.digest.selected}/${sim.digest.candidates} lines, ${fmtInt(sim.digest.chars)} chars`
          : ""}
        {sim.clampedByTotal ? " · clamped by the total budget" : ""}
        {sim.skipReason ? ` · ${r.sentence(sim.skipReason)}` : ""}
        {sim.trailingWhitespaceChars > 0
          ? ` · ${sim.trailingWhitespaceChars} trailing whitespace chars trimmed first`
          : ""}
        {sim.matchesReport === false ? " · differs from the stored report (file changed?)" : ""}
      </p>
      <div className="grid-2">
        <div>
          <h4>Source file (dropped text struck through)</h4>
          <pre className="text-block" data-testid="file-diff-source">
            {r.on ? HIDDEN_NOTICE : pieces.map((p) => <span key={p.from}>{p.node}</span>)}
          </pre>
        </div>
        <div>
          <h4>Injected text (markers highlighted)</h4>
          <pre className="text-block" data-testid="file-diff-injected">
            {r.on
              ? HIDDEN_NOTICE
              : sim.segments.map((s, i) => (
                  <span
                    // biome-ignore lint/suspicious/noArrayIndexKey: segments are positional
                    key={i}
                    className={s.kind === "kept-head" || s.kind === "kept-tail" ? undefined : `seg-${s.kind}`}
                    title={s.kind}
                  >
                    {s.text}
                  </span>
                ))}
          </pre>
        </div>
      </div>
    </div>
  );
}

// Budget waterfall: how bootstrapTotalMaxChars is consumed file by file (spec bootstrap.md §3).

import { fmtInt } from "../../../shared/format.ts";
import type { TruncationReportDTO } from "../../../shared/truncation.ts";

export function Waterfall({ dto }: { dto: TruncationReportDTO }) {
  const steps = dto.waterfall;
  if (steps.length === 0) return null;
  const max = Math.max(dto.maxTotal, 1);
  const rowH = 22;
  const labelW = 170;
  const barW = 640;
  const h = steps.length * rowH + 30;
  const x = (v: number) => labelW + (Math.max(0, Math.min(v, max)) / max) * barW;
  return (
    <div className="card">
      <h3>Total budget waterfall</h3>
      <svg
        width={labelW + barW + 150}
        height={h}
        role="img"
        aria-label="Total budget waterfall"
        data-testid="truncation-waterfall"
      >
        <line
          x1={x(max)}
          x2={x(max)}
          y1={0}
          y2={h - 18}
          stroke="currentColor"
          strokeDasharray="3 3"
          opacity={0.5}
        />
        <text x={x(max)} y={h - 4} fontSize={11} textAnchor="end" fill="currentColor">
          total cap {fmtInt(dto.maxTotal)}
        </text>
        {steps.map((s, i) => {
          const used0 = max - s.before;
          const y = i * rowH + 4;
          return (
            <g key={`${s.name}-${s.before}`} data-testid="waterfall-step">
              <text x={labelW - 6} y={y + 14} fontSize={12} textAnchor="end" fill="currentColor">
                {s.name}
              </text>
              <rect
                x={x(0)}
                y={y + 3}
                width={x(used0) - x(0)}
                height={rowH - 8}
                fill="currentColor"
                opacity={0.08}
              />
              <rect
                x={x(used0)}
                y={y + 3}
                width={Math.max(1, x(used0 + s.used) - x(used0))}
                height={rowH - 8}
                fill={
                  s.hiddenMarker ? "rgb(214,120,40)" : s.totalCapBit ? "rgb(196,64,64)" : "rgb(58,145,91)"
                }
              >
                <title>
                  {`${s.name}: used ${fmtInt(s.used)} of ${fmtInt(s.before)} left → ${fmtInt(s.after)}${s.totalCapBit ? " (limited by the total cap)" : ""}${
                    s.hiddenMarker ? " (hidden [MISSING] marker)" : ""
                  }`}
                </title>
              </rect>
              <text x={x(used0 + s.used) + 4} y={y + 14} fontSize={11} fill="currentColor" opacity={0.8}>
                {fmtInt(s.used)} · left {fmtInt(s.after)}
              </text>
            </g>
          );
        })}
      </svg>
      <p className="muted small">
        Green: file fit; red: the total budget limited it; orange: a missing file's "[MISSING]" marker took
        total budget without being injected (2026.7 and 2026.9 rules; 2026.3 injects it).
      </p>
    </div>
  );
}

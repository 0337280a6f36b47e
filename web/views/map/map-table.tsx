// The map as an expandable tree table (`?view=table`, issue 15): the accessible alternative to the treemap, drawn
// from the same MapNode tree (shared/map-table.ts flattens it). A WAI-ARIA treegrid: one row is in the Tab order
// (roving tabindex); ↑ / ↓ / Home / End move, → opens a group or steps into it, ← closes it or steps to its
// parent, Enter / Space toggles. The map's search filters the rows and marks the matches.

import { type KeyboardEvent, useEffect, useMemo, useRef, useState } from "react";
import type { MapNode, SizeMode } from "../../../shared/context-map.ts";
import { fmtInt, fmtPct } from "../../../shared/format.ts";
import { type MapTableMore, type MapTableRow, mapTableRows, sizeTree } from "../../../shared/map-table.ts";
import type { TilePruning } from "../../../shared/tile-pruning.ts";
import { formatSize } from "../../treemap/treemap.tsx";

/** Children listed per group before a "Show all" row (a tool-result group can hold thousands of leaves). */
const ROWS_PER_GROUP = 200;

export interface MapTableProps {
  viewRoot: MapNode;
  mode: SizeMode;
  exact: boolean;
  /** Σ of the whole map in the size mode (the share's denominator: the billed prompt in the token modes). */
  grandTotal: number;
  search: { matches: ReadonlySet<string>; withAncestors: ReadonlySet<string> } | null;
  pruning: ReadonlyMap<string, TilePruning>;
  title: string;
  /** The last call's billed prompt tokens (the share's name when the token modes' total is it), null if unknown. */
  billed: number | null;
  /** Heading of the pruning column: "Pruning at the last call", or at the call the map is drawn for. */
  pruningHeading?: string;
}

function pruningText(p: TilePruning | undefined): string {
  if (!p) return "";
  const state = p.state === "full" ? "full" : p.state === "soft-trim" ? "soft-trimmed" : "hard-cleared";
  return p.state === "full"
    ? `${state} at call ${fmtInt(p.call)}`
    : `${state} at call ${fmtInt(p.call)}: ${fmtInt(p.storedChars)} → ${fmtInt(p.sentChars)} chars sent`;
}

function focusRow(table: HTMLTableElement | null, id: string): void {
  const el = table?.querySelector(`tr[data-row-id="${CSS.escape(id)}"]`);
  if (el instanceof HTMLElement) el.focus();
}

/** The arrow-key step from a row: the row to focus, or a group to open / close. */
function keyAction(
  e: KeyboardEvent,
  row: MapTableRow,
  rows: readonly MapTableRow[],
): { focus: string } | { toggle: string; open: boolean } | null {
  const at = rows.findIndex((r) => r.node.id === row.node.id);
  switch (e.key) {
    case "ArrowDown":
      return rows[at + 1] ? { focus: rows[at + 1]?.node.id ?? "" } : null;
    case "ArrowUp":
      return at > 0 ? { focus: rows[at - 1]?.node.id ?? "" } : null;
    case "Home":
      return rows[0] ? { focus: rows[0].node.id } : null;
    case "End":
      return rows.length > 0 ? { focus: rows[rows.length - 1]?.node.id ?? "" } : null;
    case "ArrowRight":
      if (!row.hasChildren) return null;
      return row.expanded
        ? { focus: rows[at + 1]?.node.id ?? row.node.id }
        : { toggle: row.node.id, open: true };
    case "ArrowLeft":
      if (row.expanded) return { toggle: row.node.id, open: false };
      return row.level > 1 && row.parentId !== null ? { focus: row.parentId } : null;
    case "Enter":
    case " ":
      return row.hasChildren ? { toggle: row.node.id, open: !row.expanded } : null;
    default:
      return null;
  }
}

/** What the share column is a share of: the billed prompt where the map adds up to it (the untracked tile
 * closes the gap in the token modes), else the map's own total. */
function shareLabel(mode: SizeMode, grandTotal: number, billed: number | null): string {
  if (mode === "chars") return "% of chars";
  return billed !== null && grandTotal === billed ? "% of billed prompt" : "% of the map";
}

/** The treegrid's state: which groups are open, which show all, the row in the Tab order and the arrow keys. */
function useTreegrid(viewRoot: MapNode, mode: SizeMode, search: MapTableProps["search"]) {
  const [toggled, setToggled] = useState<ReadonlyMap<string, boolean>>(new Map());
  const [showAll, setShowAll] = useState<ReadonlySet<string>>(new Set());
  const [active, setActive] = useState<string | null>(null);
  const tableRef = useRef<HTMLTableElement>(null);
  const pendingFocus = useRef<string | null>(null);
  const sizes = useMemo(() => sizeTree(viewRoot, mode), [viewRoot, mode]);
  const all = useMemo(
    () => mapTableRows(viewRoot, { mode, sizes, toggled, search, limit: ROWS_PER_GROUP, showAll }),
    [viewRoot, mode, sizes, toggled, search, showAll],
  );
  const rows = useMemo(() => all.filter((r): r is MapTableRow => r.kind === "node"), [all]);
  const activeId =
    active !== null && rows.some((r) => r.node.id === active) ? active : (rows[0]?.node.id ?? null);

  useEffect(() => {
    if (pendingFocus.current === null) return;
    focusRow(tableRef.current, pendingFocus.current);
    pendingFocus.current = null;
  });

  const toggle = (id: string, open: boolean) => setToggled((m) => new Map(m).set(id, open));
  const onKeyDown = (e: KeyboardEvent<HTMLTableRowElement>, row: MapTableRow) => {
    const act = keyAction(e, row, rows);
    if (act === null) return;
    e.preventDefault();
    if ("focus" in act) {
      setActive(act.focus);
      focusRow(tableRef.current, act.focus);
    } else {
      toggle(act.toggle, act.open);
      pendingFocus.current = row.node.id;
    }
  };
  const showAllOf = (parentId: string) => setShowAll((s) => new Set(s).add(parentId));
  return { all, activeId, tableRef, toggle, onKeyDown, setActive, showAllOf };
}

export function MapTable(props: MapTableProps) {
  const { viewRoot, mode, grandTotal, search, title } = props;
  const grid = useTreegrid(viewRoot, mode, search);
  const tokenLabel =
    mode === "tiktoken" ? "Tokenizer tokens" : mode === "cache" ? "Tokens (cache)" : "Est. tokens";

  return (
    <div className="map-table-wrap">
      <table
        className="table map-table"
        // biome-ignore lint/a11y/noNoninteractiveElementToInteractiveRole: WAI-ARIA's treegrid pattern (APG "Treegrid Email Inbox") is a <table role="treegrid">: the rows keep their table semantics and gain expand / collapse.
        role="treegrid"
        aria-label={title}
        aria-describedby="map-table-keys"
        ref={grid.tableRef}
        data-testid="map-table"
      >
        <caption id="map-table-keys" className="sr-only">
          ↑ and ↓ move between rows; → opens a group, ← closes it; Enter toggles a group.
        </caption>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col" className="align-right">
              Chars
            </th>
            <th scope="col" className="align-right">
              {tokenLabel}
            </th>
            <th
              scope="col"
              className="align-right"
              title="Share of the whole map (not just the zoomed group) in the size mode"
            >
              {shareLabel(mode, grandTotal, props.billed)}
            </th>
            <th scope="col">{props.pruningHeading ?? "Pruning at the last call"}</th>
          </tr>
        </thead>
        <tbody>
          {grid.all.map((r) =>
            r.kind === "more" ? (
              <MoreRow key={`more:${r.parentId}`} r={r} onShowAll={() => grid.showAllOf(r.parentId)} />
            ) : (
              <NodeRow
                key={r.node.id}
                r={r}
                props={props}
                tabStop={r.node.id === grid.activeId}
                onFocus={() => grid.setActive(r.node.id)}
                onKeyDown={(e) => grid.onKeyDown(e, r)}
                onToggle={() => (r.hasChildren ? grid.toggle(r.node.id, !r.expanded) : undefined)}
              />
            ),
          )}
        </tbody>
      </table>
    </div>
  );
}

function NodeRow({
  r,
  props,
  tabStop,
  onFocus,
  onKeyDown,
  onToggle,
}: {
  r: MapTableRow;
  props: MapTableProps;
  tabStop: boolean;
  onFocus: () => void;
  onKeyDown: (e: KeyboardEvent<HTMLTableRowElement>) => void;
  onToggle: () => void;
}) {
  const { mode, exact, grandTotal, pruning } = props;
  return (
    <tr
      data-row-id={r.node.id}
      data-testid="map-table-row"
      data-level={r.level}
      data-size={r.sizes.size}
      data-match={r.match ? "1" : undefined}
      className={r.match ? "match" : undefined}
      aria-level={r.level}
      aria-posinset={r.posInSet}
      aria-setsize={r.setSize}
      aria-expanded={r.hasChildren ? r.expanded : undefined}
      tabIndex={tabStop ? 0 : -1}
      onFocus={onFocus}
      onKeyDown={onKeyDown}
      onClick={onToggle}
    >
      <td style={{ paddingLeft: `${0.4 + (r.level - 1) * 1.2}em` }}>
        <span aria-hidden="true" className="tree-twisty">
          {r.hasChildren ? (r.expanded ? "▾" : "▸") : ""}
        </span>{" "}
        {r.match ? <mark className="table-match">{r.node.name}</mark> : r.node.name}
      </td>
      <td className="align-right" data-testid="map-table-chars">
        {fmtInt(r.sizes.chars)}
      </td>
      <td className="align-right" data-testid="map-table-tokens">
        {formatSize(r.sizes.tokens, mode === "chars" ? "estTokens" : mode, exact)}
      </td>
      <td className="align-right">{fmtPct(grandTotal > 0 ? r.sizes.size / grandTotal : null, 1)}</td>
      <td data-testid="map-table-pruning">{pruningText(pruning.get(r.node.id))}</td>
    </tr>
  );
}

function MoreRow({ r, onShowAll }: { r: MapTableMore; onShowAll: () => void }) {
  return (
    <tr aria-level={r.level}>
      <td colSpan={5} style={{ paddingLeft: `${0.4 + (r.level - 1) * 1.2}em` }}>
        <button type="button" className="link" onClick={onShowAll} data-testid="map-table-more">
          Show all ({fmtInt(r.hidden)} smaller not listed)
        </button>
      </td>
    </tr>
  );
}

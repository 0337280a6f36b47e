import { Fragment, type ReactNode, useMemo, useState } from "react";
import { fmtInt } from "../../shared/format.ts";

export interface Column<R> {
  key: string;
  label: string;
  render: (row: R) => ReactNode;
  /** Enables sorting on this column. */
  sortValue?: (row: R) => number | string | null;
  align?: "left" | "right" | "center";
  title?: string;
}

/** Rows rendered at first, and added per "Show more" (a long session has 10,000+ calls: all of them as DOM rows
 * made the cost and pruning tabs take seconds to render and to react). */
export const TABLE_PAGE_ROWS = 200;

/**
 * A sortable table. Header buttons have data-testid `sort-<key>`; rows get `rowTestId(row)`. Long tables show
 * the first TABLE_PAGE_ROWS rows of the sorted order (always down to the selected row) and a footer with
 * `table-more` / `table-all` buttons.
 */
export function Table<R>({
  columns,
  rows,
  rowKey,
  rowTestId,
  rowClass,
  onRowClick,
  initialSort,
  testId,
  caption,
  empty = "Nothing to show.",
  selectedKey,
  renderDetail,
}: {
  columns: Column<R>[];
  rows: R[];
  rowKey: (row: R) => string;
  rowTestId?: (row: R) => string;
  rowClass?: (row: R) => string | undefined;
  onRowClick?: (row: R) => void;
  initialSort?: { key: string; dir: "asc" | "desc" };
  testId: string;
  caption?: string;
  empty?: string;
  selectedKey?: string | null;
  /** The selected row's details, drawn in a full-width row right under it (issue 15: details where the click was). */
  renderDetail?: (row: R) => ReactNode;
}) {
  const [limit, setLimit] = useState(TABLE_PAGE_ROWS);
  const { sorted, sort, toggleSort } = useSortedRows(rows, columns, initialSort ?? null);
  const selectedAt = selectedKey ? sorted.findIndex((r) => rowKey(r) === selectedKey) : -1;
  const rowProps = { columns, rowTestId, rowClass, onRowClick, selectedKey, renderDetail };
  const shown = sorted.length > limit ? sorted.slice(0, Math.max(limit, selectedAt + 1)) : sorted;
  return (
    <table className="table" data-testid={testId}>
      {caption ? <caption>{caption}</caption> : null}
      <TableHead columns={columns} sort={sort} onSort={toggleSort} />
      <tbody>
        {sorted.length === 0 ? (
          <tr>
            <td colSpan={columns.length} className="empty">
              {empty}
            </td>
          </tr>
        ) : (
          shown.map((r) => <BodyRow key={rowKey(r)} row={r} rowKey={rowKey(r)} {...rowProps} />)
        )}
      </tbody>
      {shown.length < sorted.length ? (
        <MoreRows columns={columns.length} shown={shown.length} total={sorted.length} setLimit={setLimit} />
      ) : null}
    </table>
  );
}

type Sort = { key: string; dir: "asc" | "desc" } | null;

/** The rows in the sort the header buttons chose (a click sorts descending, a second click flips it). */
function useSortedRows<R>(rows: R[], columns: Column<R>[], initial: Sort) {
  const [sort, setSort] = useState<Sort>(initial);
  const sorted = useMemo(() => {
    if (!sort) return rows;
    const sv = columns.find((c) => c.key === sort.key)?.sortValue;
    if (!sv) return rows;
    const dir = sort.dir === "asc" ? 1 : -1;
    return [...rows].sort((a, b) => {
      const va = sv(a);
      const vb = sv(b);
      if (va === vb) return 0;
      if (va === null) return 1;
      if (vb === null) return -1;
      return (va < vb ? -1 : 1) * dir;
    });
  }, [rows, columns, sort]);
  const toggleSort = (key: string) =>
    setSort((s) => (s?.key === key ? { key, dir: s.dir === "asc" ? "desc" : "asc" } : { key, dir: "desc" }));
  return { sorted, sort, toggleSort };
}

function TableHead<R>({
  columns,
  sort,
  onSort,
}: {
  columns: Column<R>[];
  sort: Sort;
  onSort: (key: string) => void;
}) {
  return (
    <thead>
      <tr>
        {columns.map((c) => (
          <th
            key={c.key}
            className={c.align ? `align-${c.align}` : undefined}
            title={c.title}
            aria-sort={sort?.key === c.key ? (sort.dir === "asc" ? "ascending" : "descending") : undefined}
          >
            {c.sortValue ? (
              <button
                type="button"
                className="sort-button"
                data-testid={`sort-${c.key}`}
                onClick={() => onSort(c.key)}
              >
                {c.label}
                {sort?.key === c.key ? (sort.dir === "asc" ? " ▲" : " ▼") : ""}
              </button>
            ) : (
              c.label
            )}
          </th>
        ))}
      </tr>
    </thead>
  );
}

/** "Showing N of M rows · Show K more · Show all" under a long table. */
function MoreRows({
  columns,
  shown,
  total,
  setLimit,
}: {
  columns: number;
  shown: number;
  total: number;
  setLimit: (n: number) => void;
}) {
  return (
    <tfoot>
      <tr>
        <td colSpan={columns} className="table-more" data-testid="table-more-row">
          Showing {fmtInt(shown)} of {fmtInt(total)} rows ·{" "}
          <button type="button" data-testid="table-more" onClick={() => setLimit(shown + TABLE_PAGE_ROWS)}>
            Show {fmtInt(Math.min(TABLE_PAGE_ROWS, total - shown))} more
          </button>{" "}
          <button type="button" data-testid="table-all" onClick={() => setLimit(total)}>
            Show all
          </button>
        </td>
      </tr>
    </tfoot>
  );
}

function BodyRow<R>(props: {
  row: R;
  rowKey: string;
  columns: Column<R>[];
  rowTestId?: (row: R) => string;
  rowClass?: (row: R) => string | undefined;
  onRowClick?: (row: R) => void;
  selectedKey?: string | null;
  renderDetail?: (row: R) => ReactNode;
}) {
  const { row: r, rowKey: k, columns, rowTestId, rowClass, onRowClick, selectedKey, renderDetail } = props;
  const selected = selectedKey === k;
  const cls = [rowClass?.(r), onRowClick ? "clickable" : undefined, selected ? "selected" : undefined]
    .filter(Boolean)
    .join(" ");
  return (
    <Fragment>
      <tr
        className={cls || undefined}
        data-testid={rowTestId?.(r)}
        onClick={onRowClick ? () => onRowClick(r) : undefined}
        onKeyDown={onRowClick ? (e) => (e.key === "Enter" ? onRowClick(r) : undefined) : undefined}
        tabIndex={onRowClick ? 0 : undefined}
        aria-selected={selectedKey !== undefined ? selected : undefined}
      >
        {columns.map((c) => (
          <td key={c.key} className={c.align ? `align-${c.align}` : undefined}>
            {c.render(r)}
          </td>
        ))}
      </tr>
      {selected && renderDetail ? (
        <tr className="row-detail" data-testid="table-row-detail">
          <td colSpan={columns.length}>{renderDetail(r)}</td>
        </tr>
      ) : null}
    </Fragment>
  );
}

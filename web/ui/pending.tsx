/** Placeholder for a view whose server report is not available in this build. */
export function Pending({ what }: { what: string }) {
  return (
    <div className="pending" data-testid={`pending-${what}`}>
      The {what} report is not available in this build yet.
    </div>
  );
}

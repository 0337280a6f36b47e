// What every session tab view gets. A type-only leaf: the views and session-view.tsx import it, not each other.

export interface SessionTabProps {
  agentId: string;
  sessionId: string;
  /** The URL's query: each view keeps its own state there (zoom, what-if, selected call, …). */
  params: URLSearchParams;
}

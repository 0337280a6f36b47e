import { Pending } from "../../ui/pending.tsx";
import type { SessionViewProps } from "../session-view.tsx";

export function PruningView(_props: SessionViewProps) {
  return <Pending what="pruning" />;
}

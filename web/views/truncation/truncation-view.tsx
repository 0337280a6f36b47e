import { Pending } from "../../ui/pending.tsx";
import type { SessionViewProps } from "../session-view.tsx";

export function TruncationView(_props: SessionViewProps) {
  return <Pending what="truncation" />;
}

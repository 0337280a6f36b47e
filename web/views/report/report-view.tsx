import { Pending } from "../../ui/pending.tsx";
import type { SessionViewProps } from "../session-view.tsx";

export function ReportView(_props: SessionViewProps) {
  return <Pending what="report" />;
}

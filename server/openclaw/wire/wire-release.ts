// The wire rules that changed inside the 2026.9 family (2026.8.1 on; docs/openclaw-facts.md §8.3, read from the
// npm builds of 8.1 – 9.5 and checked on the 2026.8.2 / 2026.9.1 captures): which of them a session's own release
// has. A release clawscope cannot read counts as the newest of its family. Pure.

import { hasChangeFrom, type Release } from "../../../shared/release-order.ts";
import type { VersionInfo } from "../../../shared/session.ts";
import type { ImageFamily } from "./history-images.ts";

/** 2026.9.3 `buildRuntimeFactsContext`: the runtime-context carrier message after the prompt (none before). */
const CARRIER_FROM: Release = [2026, 9, 3];
/** 2026.9.5: the carrier as clawscope builds it (2026.9.6's facts, queued system events, delimiter escape). */
const CARRIER_AS_9_6_FROM: Release = [2026, 9, 5];
/** 2026.9.5 `resolvePruneBeforeIndex`: 2026.9.6's history image cut (before: 2026.7.1's). */
const IMAGE_CUT_FROM: Release = [2026, 9, 5];
/** 2026.9.6 `session-created-*.mjs`: notices of new sessions in the main session's carrier. */
const NOTICES_FROM: Release = [2026, 9, 6];

export interface WireReleaseRules {
  /** A runtime-context carrier message goes after the prompt (2026.9.3+). */
  runtimeCarrier: boolean;
  imageCut: ImageFamily;
  /** Session-created notices reach the main session (2026.9.6). */
  sessionNotices: boolean;
  /** What of the session's release is reconstructed with a later rule, or null. */
  approximated: string | null;
}

/** The wire rules of the release that wrote a session. */
export function wireReleaseRules(version: Pick<VersionInfo, "family" | "appVersion">): WireReleaseRules {
  if (version.family !== "2026.9")
    return { runtimeCarrier: false, imageCut: "2026.7", sessionNotices: false, approximated: null };
  const carrier = hasChangeFrom(version.appVersion, CARRIER_FROM);
  return {
    runtimeCarrier: carrier,
    imageCut: hasChangeFrom(version.appVersion, IMAGE_CUT_FROM) ? "2026.9" : "2026.7",
    sessionNotices: hasChangeFrom(version.appVersion, NOTICES_FROM),
    approximated:
      carrier && !hasChangeFrom(version.appVersion, CARRIER_AS_9_6_FROM)
        ? `the runtime-context carrier is built as 2026.9.5+ builds it; ${version.appVersion}'s first carrier (2026.9.3) can differ in its facts and events`
        : null,
  };
}

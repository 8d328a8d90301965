"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import styles from "../portal.module.css";
import { uiClient, withFreshAccess } from "./ui-client";

interface Labels {
  mute: string;
  unmute: string;
  mutedNote: string;
  saving: string;
  saveFailed: string;
}

/** Mutes or unmutes the notices about one breach (every channel, every mailbox of it), then re-renders the page. */
export function MuteButton({ breachId, muted, labels }: { breachId: string; muted: boolean; labels: Labels }) {
  const router = useRouter();
  const [state, setState] = useState<"idle" | "saving" | "failed">("idle");
  const toggle = async () => {
    setState("saving");
    try {
      await withFreshAccess(() => uiClient.portal.setBreachMuted.mutate({ breachId, muted: !muted }), router);
      setState("idle");
      router.refresh();
    } catch {
      setState("failed");
    }
  };
  const message = { idle: muted ? labels.mutedNote : "", saving: labels.saving, failed: labels.saveFailed }[state];
  return (
    <div className={styles.resolve}>
      <button type="button" className={styles.secondaryButton} onClick={toggle} disabled={state === "saving"}>
        {muted ? labels.unmute : labels.mute}
      </button>
      {/* A live region, not a second role="status": the page's own status line stays the one. */}
      <p aria-live="polite" className={state === "failed" ? styles.errorText : styles.muted}>
        {message}
      </p>
    </div>
  );
}

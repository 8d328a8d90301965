"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import styles from "../portal.module.css";
import { uiClient, withFreshAccess } from "./ui-client";

interface Labels {
  markFixed: string;
  markNotFixed: string;
  saving: string;
  saved: string;
  saveFailed: string;
}

/** Marks the breach fixed or not fixed (the partner API's breach/status underneath), then re-renders the page. */
export function ResolveButton({ breachId, resolved, labels }: { breachId: string; resolved: boolean; labels: Labels }) {
  const router = useRouter();
  const [state, setState] = useState<"idle" | "saving" | "saved" | "failed">("idle");
  const toggle = async () => {
    setState("saving");
    try {
      await withFreshAccess(() => uiClient.portal.setBreachResolved.mutate({ breachId, resolved: !resolved }), router);
      setState("saved");
      router.refresh();
    } catch {
      setState("failed");
    }
  };
  const message = { idle: "", saving: labels.saving, saved: labels.saved, failed: labels.saveFailed }[state];
  return (
    <div className={styles.resolve}>
      <button
        type="button"
        className={resolved ? styles.secondaryButton : styles.primaryButton}
        onClick={toggle}
        disabled={state === "saving"}
      >
        {resolved ? labels.markNotFixed : labels.markFixed}
      </button>
      <p role="status" className={state === "failed" ? styles.errorText : styles.muted}>
        {message}
      </p>
    </div>
  );
}

"use client";

import { useState } from "react";

/** Copies a value to the clipboard and says so (also to screen readers). */
export function CopyButton({ value, label = "Copy" }: { value: string; label?: string }) {
  const [copied, setCopied] = useState<"yes" | "failed" | undefined>();

  async function copy() {
    try {
      await navigator.clipboard.writeText(value);
      setCopied("yes");
    } catch {
      setCopied("failed");
    }
  }

  return (
    <>
      <button type="button" className="button button-small" onClick={copy}>
        {label}
      </button>
      <span className="copy-status" role="status">
        {copied === "yes" ? "Copied" : copied === "failed" ? "Copy failed: select the text and copy it" : ""}
      </span>
    </>
  );
}

/** A secret shown once (an API key, a signing secret) with a copy button and the warning that goes with it. */
export function OneTimeSecret({
  title,
  value,
  note = "shown only now. Copy it and keep it safe; it cannot be shown again.",
  children,
}: {
  title: string;
  value: string;
  note?: string;
  children?: React.ReactNode;
}) {
  return (
    <div className="one-time-secret" role="region" aria-label={title}>
      <p className="one-time-secret-title">
        <strong>{title}</strong>: {note}
      </p>
      <div className="one-time-secret-value">
        <code data-testid="one-time-secret">{value}</code>
        <CopyButton value={value} />
      </div>
      {children}
    </div>
  );
}

/** A short status word with a colour that matches its meaning (the word itself carries it too). */
const TONES: Record<string, "good" | "warn" | "bad" | "neutral"> = {
  active: "good",
  ok: "good",
  syncing: "neutral",
  delivered: "good",
  enabled: "good",
  healthy: "good",
  "never-succeeded": "warn",
  verified: "good",
  unverified: "warn",
  prospect: "neutral",
  pending: "neutral",
  delivering: "neutral",
  fallback: "neutral",
  dormant: "warn",
  disabled: "warn",
  revoked: "bad",
  retired: "warn",
  inactive: "bad",
  failed: "bad",
  failing: "bad",
};

export function Badge({ status, children }: { status: string; children?: React.ReactNode }) {
  return <span className={`badge badge-${TONES[status] ?? "neutral"}`}>{children ?? status}</span>;
}

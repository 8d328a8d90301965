const PROVIDERS: Record<string, string> = { connectwise: "ConnectWise PSA", autotask: "Autotask", halopsa: "HaloPSA" };

interface PsaConnectionView {
  provider: string;
  baseUrl: string;
  ticketPerMailbox: boolean;
  state: "ok" | "failing";
  failingSince: string | null;
  lastError: string | null;
  lastPolledAt: string | null;
  mappedCustomers: number;
  openTickets: number;
}

/** The partner's PSA connection, read-only (the partner connects it through its API: docs/integrations.md). */
export function PsaConnectionState({ psa }: { psa: PsaConnectionView | null }) {
  if (!psa)
    return (
      <p>
        No PSA connected. The partner connects one with <code>PUT /api/v1/integrations/psa</code>.
      </p>
    );
  return (
    <>
      {psa.state === "failing" ? (
        <p role="alert" className="form-error">
          Failing since {psa.failingSince}: the PSA refused the credentials ({psa.lastError}). Nothing is sent until the partner replaces
          them or a connection test succeeds.
        </p>
      ) : null}
      <dl className="facts">
        <dt>PSA</dt>
        <dd>{PROVIDERS[psa.provider] ?? psa.provider}</dd>
        <dt>Address</dt>
        <dd>
          <code>{psa.baseUrl}</code>
        </dd>
        <dt>State</dt>
        <dd>{psa.state === "ok" ? "working" : "failing"}</dd>
        <dt>Tickets</dt>
        <dd>
          {psa.ticketPerMailbox ? "one per mailbox and breach" : "one per customer and breach"}; {psa.openTickets} open
        </dd>
        <dt>Mapped customers</dt>
        <dd>{psa.mappedCustomers}</dd>
        <dt>Last poll</dt>
        <dd>{psa.lastPolledAt ?? "not yet"}</dd>
      </dl>
    </>
  );
}

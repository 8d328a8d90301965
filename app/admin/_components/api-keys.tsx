"use client";

import { useState } from "react";
import { trpc, useAction } from "../_lib/client";
import { Badge } from "./badge";
import { DataTable } from "./data-table";
import { OneTimeSecret } from "./copy-button";
import { FormError } from "./fields";
import { DateTime } from "./date-time";

interface KeySummary {
  id: string;
  label: string | null;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

/** A partner's API keys: issue one (shown once, with a copy button), list them, revoke one. */
export function ApiKeys({ partnerId, partnerName, keys }: { partnerId: string; partnerName: string; keys: KeySummary[] }) {
  const { run, pending, error } = useAction();
  const [issued, setIssued] = useState<{ id: string; apiKey: string }>();

  async function issue() {
    setIssued(await run(() => trpc.admin.partners.issueApiKey.mutate({ partnerId })));
  }

  async function revoke(key: KeySummary) {
    if (!window.confirm(`Revoke the key ${key.id} of ${partnerName}? Requests with it are refused at once.`)) return;
    if (issued?.id === key.id) setIssued(undefined);
    await run(() => trpc.admin.partners.revokeApiKey.mutate({ partnerId, keyId: key.id }));
  }

  return (
    <div>
      <FormError error={error} />
      <p>
        <button type="button" className="button button-primary" onClick={issue} disabled={pending}>
          Issue a new API key
        </button>
      </p>
      {issued ? (
        <OneTimeSecret title="New API key" value={issued.apiKey}>
          <p className="field-hint">
            The partner sends it as <code>SW-API-KEY</code> with <code>SW-PARTNER-ID: {partnerId}</code>. Its other keys keep working until
            you revoke them. In the list below it is the key{" "}
            <code className="wrap" data-testid="issued-key-id">
              {issued.id}
            </code>
            ..
          </p>
        </OneTimeSecret>
      ) : null}
      {keys.length === 0 ? (
        <p className="muted">No API keys yet: the partner cannot call the API until you issue one.</p>
      ) : (
        <DataTable
          caption={`API keys of ${partnerName}`}
          rows={keys}
          rowKey={(key) => key.id}
          rowData={(key) => ({ "data-key-id": key.id })}
          columns={[
            { header: "Key id", rowHeader: true, cell: (key) => <code className="wrap">{key.id}</code> },
            {
              header: "Status",
              cell: (key) =>
                key.revokedAt ? (
                  <Badge status="revoked">
                    revoked <DateTime iso={key.revokedAt} />
                  </Badge>
                ) : (
                  <Badge status="active" />
                ),
            },
            { header: "Created", cell: (key) => <DateTime iso={key.createdAt} /> },
            { header: "Last used", cell: (key) => <DateTime iso={key.lastUsedAt} /> },
            { header: "Note", className: "wrap", cell: (key) => key.label ?? "—" },
            {
              header: "Actions",
              hideHeader: true,
              cell: (key) =>
                key.revokedAt ? null : (
                  <button type="button" className="button button-small button-danger" onClick={() => revoke(key)} disabled={pending}>
                    Revoke<span className="visually-hidden"> key {key.id}</span>
                  </button>
                ),
            },
          ]}
        />
      )}
    </div>
  );
}

"use client";

import { useState } from "react";
import { trpc, useAction } from "../_lib/client";
import { Badge } from "./badge";
import { OneTimeSecret } from "./copy-button";
import { FormError } from "./fields";
import { DateTime } from "./date-time";

interface KeySummary {
  id: string;
  prefix: string;
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
    if (!window.confirm(`Revoke the key ${key.prefix}… of ${partnerName}? Requests with it are refused at once.`)) return;
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
            you revoke them.
          </p>
        </OneTimeSecret>
      ) : null}
      {keys.length === 0 ? (
        <p className="muted">No API keys yet: the partner cannot call the API until you issue one.</p>
      ) : (
        <div className="table-scroll">
          <table>
            <caption className="visually-hidden">API keys of {partnerName}</caption>
            <thead>
              <tr>
                <th scope="col">Key</th>
                <th scope="col">Status</th>
                <th scope="col">Created</th>
                <th scope="col">Last used</th>
                <th scope="col">Note</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {keys.map((key) => (
                <tr key={key.id} data-key-id={key.id}>
                  <th scope="row">
                    <code>{key.prefix}…</code>
                  </th>
                  <td>
                    {key.revokedAt ? (
                      <Badge status="revoked">
                        revoked <DateTime iso={key.revokedAt} />
                      </Badge>
                    ) : (
                      <Badge status="active" />
                    )}
                  </td>
                  <td>
                    <DateTime iso={key.createdAt} />
                  </td>
                  <td>
                    <DateTime iso={key.lastUsedAt} />
                  </td>
                  <td className="wrap">{key.label ?? "—"}</td>
                  <td>
                    {key.revokedAt ? null : (
                      <button type="button" className="button button-small button-danger" onClick={() => revoke(key)} disabled={pending}>
                        Revoke<span className="visually-hidden"> key {key.prefix}</span>
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}

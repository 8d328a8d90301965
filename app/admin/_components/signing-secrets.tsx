"use client";

import { useState } from "react";
import { trpc, useAction } from "../_lib/client";
import { Badge } from "./badge";
import { DataTable } from "./data-table";
import { OneTimeSecret } from "./copy-button";
import { FormError } from "./fields";
import { DateTime } from "./date-time";

interface Secret {
  id: string;
  status: "active" | "fallback";
  createdAt: string;
}

/**
 * The distributor's signing secrets (at most one active and one fallback). Generating replaces
 * them all at once (for a leaked secret); cycling keeps the current one as the fallback while
 * receivers switch; deactivating deletes one. A new token is shown once.
 */
export function SigningSecrets({ secrets }: { secrets: Secret[] }) {
  const { run, pending, error } = useAction();
  const [token, setToken] = useState<string>();

  async function generate() {
    if (
      secrets.length > 0 &&
      !window.confirm("Replace every signing secret now? Receivers that check the current one fail until they have the new one.")
    ) {
      return;
    }
    setToken((await run(() => trpc.admin.webhooks.generateSecret.mutate()))?.token);
  }

  async function cycle() {
    setToken((await run(() => trpc.admin.webhooks.cycleSecret.mutate()))?.token);
  }

  async function deactivate(secret: Secret) {
    const warning = secret.status === "active" ? " Without an active secret, deliveries fail without being sent." : "";
    if (!window.confirm(`Deactivate the ${secret.status} secret?${warning}`)) return;
    setToken(undefined);
    await run(() => trpc.admin.webhooks.deactivateSecret.mutate({ secretId: secret.id }));
  }

  return (
    <div>
      <FormError error={error} />
      {token ? <OneTimeSecret title="New signing secret" value={token} /> : null}
      {secrets.length === 0 ? (
        <p className="muted">No signing secret: one is generated with your first endpoint, or generate one now.</p>
      ) : (
        <DataTable
          rows={secrets}
          rowKey={(secret) => secret.id}
          columns={[
            {
              header: "Secret",
              rowHeader: true,
              cell: (secret) => <Badge status={secret.status === "active" ? "active" : "fallback"}>{secret.status}</Badge>,
            },
            { header: "Created", cell: (secret) => <DateTime iso={secret.createdAt} /> },
            {
              header: "Actions",
              hideHeader: true,
              cell: (secret) => (
                <button type="button" className="button button-small button-danger" onClick={() => deactivate(secret)} disabled={pending}>
                  Deactivate<span className="visually-hidden"> the {secret.status} secret</span>
                </button>
              ),
            },
          ]}
        />
      )}
      {secrets.length === 0 ? (
        <p className="button-row">
          <button type="button" className="button button-primary" onClick={generate} disabled={pending}>
            Generate a signing secret
          </button>
        </p>
      ) : (
        <>
          <p className="button-row">
            <button type="button" className="button" onClick={cycle} disabled={pending} aria-describedby="cycle-hint">
              Cycle secret
            </button>
            <button type="button" className="button button-danger" onClick={generate} disabled={pending} aria-describedby="generate-hint">
              Replace all secrets
            </button>
          </p>
          <ul className="field-hint">
            <li id="cycle-hint">
              Cycle: a new active secret; the current one becomes the fallback. A receiver still on it keeps receiving: a delivery it
              refuses is sent again at once, signed with the fallback, until you deactivate the fallback.
            </li>
            <li id="generate-hint">Replace all: a new active secret and no fallback, at once (for a leaked secret).</li>
          </ul>
        </>
      )}
    </div>
  );
}

"use client";

import { useState, type FormEvent } from "react";
import { trpc, useAction } from "../_lib/client";
import { FormError, TextField } from "./fields";

/** The distributor's domain policy (docs/domains.md): verified or trusted. */
export function DomainPolicyForm({ policy }: { policy: "verified" | "trusted" }) {
  const { run, pending, error } = useAction();
  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const chosen = new FormData(event.currentTarget).get("policy") === "trusted" ? "trusted" : "verified";
    await run(() => trpc.admin.domains.setPolicy.mutate({ policy: chosen }));
  }
  return (
    <form className="card form" onSubmit={submit} aria-label="Domain policy">
      <FormError error={error} />
      <fieldset>
        <legend>Domain policy</legend>
        <label>
          <input type="radio" name="policy" value="verified" defaultChecked={policy === "verified"} /> Verified: what scans find at a
          customer&apos;s domain is shown only once the domain is verified for that customer
        </label>
        <label>
          <input type="radio" name="policy" value="trusted" defaultChecked={policy === "trusted"} /> Trusted: shown at once (we vouch for
          our partners by contract)
        </label>
      </fieldset>
      <div className="form-actions">
        <button type="submit" className="button button-primary" disabled={pending}>
          Save policy
        </button>
      </div>
    </form>
  );
}

/** Staff attestation of one customer domain, with the required note. */
export function AttestDomainForm({ customerId, domain }: { customerId: string; domain: string }) {
  const { run, pending, error } = useAction();
  const [open, setOpen] = useState(false);
  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const note = String(new FormData(event.currentTarget).get("note") ?? "");
    const done = await run(() => trpc.admin.domains.attest.mutate({ customerId, domain, note }));
    if (done) setOpen(false);
  }
  if (!open) {
    return (
      <button type="button" className="button" onClick={() => setOpen(true)} aria-label={`Attest ${domain}`}>
        Attest
      </button>
    );
  }
  return (
    <form className="form" onSubmit={submit} aria-label={`Attest ${domain}`} noValidate>
      <FormError error={error} />
      <TextField name="note" label="Note (required)" hint="Why you vouch for this domain" required maxLength={500} autoComplete="off" />
      <div className="form-actions">
        <button type="submit" className="button button-primary" disabled={pending}>
          Verify {domain}
        </button>
      </div>
    </form>
  );
}

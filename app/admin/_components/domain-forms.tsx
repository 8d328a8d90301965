"use client";

import { useState, type FormEvent } from "react";
import { trpc, useAction } from "../_lib/client";
import { FormError, TextField } from "./fields";

/** The distributor's domain policy (docs/domains.md), read-only: an operator sets it with the admin CLI. */
export function DomainPolicyNote({ policy }: { policy: "verified" | "trusted" }) {
  return (
    <section className="card" aria-label="Domain policy">
      <h2>Domain policy: {policy === "trusted" ? "trusted" : "verified"}</h2>
      <p>
        {policy === "trusted"
          ? "Trusted: what scans find at a customer's domain is shown at once, except at a domain that a customer of another distributor also monitors, which is shown only once verified for that customer."
          : "Verified: what scans find at a customer's domain is shown only once the domain is verified for that customer."}
      </p>
      <p className="hint">The policy is an operator setting (the admin CLI&apos;s set-domain-policy); ask your operator to change it.</p>
    </section>
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

"use client";

import { useRef, type FormEvent } from "react";
import { trpc, useAction } from "../_lib/client";
import { FormError, TextField } from "./fields";

/** Adds a billing code; the server checks it with the same schema the rest of the service uses. */
export function BillingCodeForm() {
  const { run, pending, error } = useAction();
  const formRef = useRef<HTMLFormElement>(null);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const priceText = String(form.get("price") ?? "").trim();
    const created = await run(() =>
      trpc.admin.billingCodes.create.mutate({
        code: String(form.get("code") ?? ""),
        price: priceText === "" ? Number.NaN : Number(priceText),
      }),
    );
    if (created) formRef.current?.reset();
  }

  return (
    <form ref={formRef} className="card form form-inline" onSubmit={submit} noValidate aria-label="New billing code">
      <FormError error={error} />
      <TextField name="code" label="Code" required maxLength={100} autoComplete="off" error={error?.fieldErrors.code} />
      <TextField
        name="price"
        label="Price"
        required
        inputMode="decimal"
        hint="Per active customer and month, e.g. 2.50"
        error={error?.fieldErrors.price}
      />
      <div className="form-actions">
        <button type="submit" className="button button-primary" disabled={pending}>
          Add billing code
        </button>
      </div>
    </form>
  );
}

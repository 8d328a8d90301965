"use client";

import { useRef, useState, type FormEvent } from "react";
import type { BillingCodeRecord } from "@/server/distributors/billing-codes";
import { trpc, useAction } from "../_lib/client";
import { FormError, TextField } from "./fields";

/** The form's fields as the UI procedures take them (an empty price is a number the server refuses). */
function fieldsOf(form: FormData) {
  const priceText = String(form.get("price") ?? "").trim();
  return {
    code: String(form.get("code") ?? ""),
    price: priceText === "" ? Number.NaN : Number(priceText),
    currency: String(form.get("currency") ?? ""),
  };
}

/** Adds a billing code; the server checks it with the same schema the rest of the service uses. */
export function BillingCodeForm() {
  const { run, pending, error } = useAction();
  const formRef = useRef<HTMLFormElement>(null);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const created = await run(() => trpc.admin.billingCodes.create.mutate(fieldsOf(new FormData(event.currentTarget))));
    if (created) formRef.current?.reset();
  }

  return (
    <form ref={formRef} className="card form" onSubmit={submit} noValidate aria-label="New billing code">
      <FormError error={error} />
      <div className="form-grid">
        <TextField name="code" label="Code" required maxLength={100} autoComplete="off" error={error?.fieldErrors.code} />
        <TextField
          name="price"
          label="Price"
          required
          inputMode="decimal"
          hint="Per active customer and month, e.g. 2.50"
          error={error?.fieldErrors.price}
        />
        <TextField
          name="currency"
          label="Currency"
          required
          maxLength={3}
          defaultValue="EUR"
          autoComplete="off"
          hint="ISO 4217, e.g. EUR, USD, SEK"
          error={error?.fieldErrors.currency}
        />
      </div>
      <div className="form-actions">
        <button type="submit" className="button button-primary" disabled={pending}>
          Add billing code
        </button>
      </div>
    </form>
  );
}

/**
 * One code's actions: edit (code, price, currency; a new code follows to its partners), retire or
 * bring back, and delete (the server refuses a code a partner uses: retire it instead).
 */
export function BillingCodeActions({ code }: { code: BillingCodeRecord }) {
  const { run, pending, error } = useAction();
  const [editing, setEditing] = useState(false);
  const prefix = `code-${code.id}`;

  async function save(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const saved = await run(() => trpc.admin.billingCodes.update.mutate({ id: code.id, ...fieldsOf(new FormData(event.currentTarget)) }));
    if (saved) setEditing(false);
  }

  async function remove() {
    if (!window.confirm(`Delete the billing code ${code.code}?`)) return;
    await run(() => trpc.admin.billingCodes.delete.mutate({ id: code.id }));
  }

  return (
    <div className="row-actions">
      <div className="button-row">
        <button type="button" className="button button-small" aria-expanded={editing} onClick={() => setEditing(!editing)}>
          Edit<span className="visually-hidden"> {code.code}</span>
        </button>
        <button
          type="button"
          className="button button-small"
          disabled={pending}
          onClick={() => run(() => trpc.admin.billingCodes.setRetired.mutate({ id: code.id, retired: !code.retired }))}
        >
          {code.retired ? "Bring back" : "Retire"}
          <span className="visually-hidden"> {code.code}</span>
        </button>
        <button type="button" className="button button-small button-danger" disabled={pending} onClick={remove}>
          Delete<span className="visually-hidden"> {code.code}</span>
        </button>
      </div>
      {!editing ? <FormError error={error} /> : null}
      {editing ? (
        <form className="form form-inline" onSubmit={save} noValidate aria-label={`Edit billing code ${code.code}`}>
          <FormError error={error} />
          <div className="field">
            <label htmlFor={`${prefix}-code`}>Code</label>
            <input id={`${prefix}-code`} name="code" defaultValue={code.code} maxLength={100} autoComplete="off" />
          </div>
          <div className="field">
            <label htmlFor={`${prefix}-price`}>Price</label>
            <input id={`${prefix}-price`} name="price" defaultValue={code.price.toFixed(2)} inputMode="decimal" />
          </div>
          <div className="field">
            <label htmlFor={`${prefix}-currency`}>Currency</label>
            <input id={`${prefix}-currency`} name="currency" defaultValue={code.currency} maxLength={3} autoComplete="off" />
          </div>
          <div className="form-actions">
            <button type="submit" className="button button-primary" disabled={pending}>
              Save
            </button>
          </div>
        </form>
      ) : null}
    </div>
  );
}

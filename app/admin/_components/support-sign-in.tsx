"use client";

import { useState } from "react";
import { trpc, useAction } from "../_lib/client";
import { FormError } from "./fields";
import { OneTimeSecret } from "./copy-button";

/** Creates a one-time portal sign-in link for the customer, to hand over in support; the page's audit list then shows it. */
export function SupportSignInLink({ customerId }: { customerId: string }) {
  const { run, pending, error } = useAction();
  const [url, setUrl] = useState<string>();

  async function create() {
    const link = await run(() => trpc.admin.customers.signInLink.mutate({ customerId }));
    if (link) setUrl(link.url);
  }

  return (
    <div>
      <FormError error={error} />
      <button type="button" className="button" disabled={pending} onClick={create}>
        Create a sign-in link
      </button>
      {url ? (
        <OneTimeSecret
          title="Sign-in link"
          value={url}
          note="it signs in as this customer once, within the hour. Hand it only to the customer; it is shown only now and its creation is recorded below."
        />
      ) : null}
    </div>
  );
}

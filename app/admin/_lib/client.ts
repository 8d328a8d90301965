"use client";

import { createTRPCClient, httpLink, TRPCClientError } from "@trpc/client";
import { useRouter } from "next/navigation";
import { useState } from "react";
import type { UiRouter } from "@/server/api/ui/root";

/** The UI procedures from the browser (/api/trpc, with the session cookie). */
export const trpc = createTRPCClient<UiRouter>({ links: [httpLink({ url: "/api/trpc" })] });

export interface ActionError {
  message: string;
  /** Zod failures by field path ("contact_email", "eventTypes.0"), from the server's error formatter. */
  fieldErrors: Record<string, string>;
}

function toActionError(error: unknown): ActionError {
  if (error instanceof TRPCClientError) {
    const data = error.data as { fieldErrors?: Record<string, string> } | undefined;
    return { message: error.message, fieldErrors: data?.fieldErrors ?? {} };
  }
  return { message: "The service could not be reached; please try again", fieldErrors: {} };
}

function isSignedOut(error: unknown): boolean {
  return error instanceof TRPCClientError && (error.data as { httpStatus?: number } | undefined)?.httpStatus === 401;
}

/**
 * Runs a procedure call for a form or button: tracks it as pending, keeps its error (message and
 * field errors) for display, sends a signed-out user to the sign-in page, and on success
 * re-renders the page's server components (router.refresh) unless told not to.
 */
export function useAction() {
  const router = useRouter();
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<ActionError | undefined>();

  async function run<T>(call: () => Promise<T>, { refresh = true } = {}): Promise<T | undefined> {
    setPending(true);
    setError(undefined);
    try {
      const result = await call();
      if (refresh) router.refresh();
      return result;
    } catch (caught) {
      if (isSignedOut(caught)) {
        router.push("/admin/sign-in");
        return undefined;
      }
      setError(toActionError(caught));
      return undefined;
    } finally {
      setPending(false);
    }
  }

  return { run, pending, error, setError };
}

"use client";

import { useRouter } from "next/navigation";
import { useEffect } from "react";
import { leaveEndedSession, refreshAccess } from "./ui-client";

/** Renew this long before the access token runs out. */
const RENEW_BEFORE_MS = 5 * 60_000;
/** The customer counts as active after input within this window. */
const ACTIVE_WINDOW_MS = 15 * 60_000;
const CHECK_EVERY_MS = 30_000;

/**
 * Keeps the session of an active customer, refreshing it while the customer is active
 * (docs/portal.md): shortly before the access token runs out, and only after recent input,
 * it is renewed in the background. An idle customer's access token simply runs out; the next
 * page they open renews it through /auth/refresh while the refresh token is still valid.
 */
export function SessionKeeper({ accessExpiresAt }: { accessExpiresAt: number }) {
  const router = useRouter();
  useEffect(() => {
    let expiresAtMs = accessExpiresAt * 1000;
    let lastInput = Date.now();
    let renewing = false;
    const noteInput = () => {
      lastInput = Date.now();
    };
    const check = async () => {
      const now = Date.now();
      if (renewing || expiresAtMs - now > RENEW_BEFORE_MS || now - lastInput > ACTIVE_WINDOW_MS) return;
      renewing = true;
      try {
        const renewed = await refreshAccess();
        if (renewed === null) leaveEndedSession(router);
        else expiresAtMs = renewed * 1000;
      } catch {
        // offline or a server hiccup: the next check tries again
      } finally {
        renewing = false;
      }
    };
    const events = ["pointerdown", "keydown", "scroll", "touchstart"] as const;
    for (const event of events) window.addEventListener(event, noteInput, { passive: true });
    const onVisible = () => {
      if (document.visibilityState === "visible") {
        noteInput();
        void check();
      }
    };
    document.addEventListener("visibilitychange", onVisible);
    const timer = window.setInterval(() => void check(), CHECK_EVERY_MS);
    return () => {
      for (const event of events) window.removeEventListener(event, noteInput);
      document.removeEventListener("visibilitychange", onVisible);
      window.clearInterval(timer);
    };
  }, [accessExpiresAt, router]);
  return null;
}

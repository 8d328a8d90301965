"use client";

import { signOut } from "next-auth/react";
import { useState } from "react";

export function SignOutButton() {
  const [pending, setPending] = useState(false);
  return (
    <button
      type="button"
      className="button button-quiet"
      disabled={pending}
      onClick={() => {
        setPending(true);
        void signOut({ callbackUrl: "/admin/sign-in?signedOut=1" });
      }}
    >
      Sign out
    </button>
  );
}

import type { Metadata } from "next";
import { linkTokenParam } from "@/app/_lib/link-token";
import { uiCaller } from "@/server/api/ui/handler";
import { AcceptInvitationForm } from "../_components/staff-forms";
import type { SearchParams } from "../_lib/server";

export const metadata: Metadata = { title: "Invitation" };

/** Where an invitation link leads: choose a password, or sign in by single sign-on (docs/admin-ui.md, "Staff"). */
export default async function InvitationPage({ searchParams }: { searchParams: SearchParams }) {
  const token = linkTokenParam((await searchParams).token, 200);
  const state = await (await uiCaller()).staffInvitation.state({ token });
  return (
    <main className="sign-in" id="main">
      <h1>Join the admin UI</h1>
      {state.valid ? (
        <>
          <p className="muted">
            {state.distributorName} invited <strong>{state.email}</strong>.
          </p>
          <AcceptInvitationForm token={token} email={state.email} ssoProvider={state.ssoProvider} />
        </>
      ) : (
        <p role="alert">{state.message}</p>
      )}
    </main>
  );
}

import Link from "next/link";
import type { ReactNode } from "react";
import { AdminNav } from "../_components/admin-nav";
import { SignOutButton } from "../_components/sign-out-button";
import { MfaEnrolment } from "../_components/staff-forms";
import { adminApi } from "../_lib/server";
import { ADMIN_NAV } from "../nav";

/**
 * The signed-in admin UI: header with the distributor and the staff member, navigation, content;
 * while a required MFA enrolment is pending, the enrolment instead of any page.
 */
export default async function ConsoleLayout({ children }: { children: ReactNode }) {
  const { staff, distributor } = await (await adminApi()).admin.me();
  return (
    <div className="admin">
      <a href="#main" className="skip-link">
        Skip to content
      </a>
      <header className="admin-header">
        <div className="admin-brand">
          <Link href="/admin">Exposure monitoring</Link>
          <span className="admin-distributor">{distributor.name}</span>
        </div>
        <div className="admin-user">
          <span className="admin-email">{staff.email}</span>
          <SignOutButton />
        </div>
      </header>
      <div className="admin-body">
        <AdminNav entries={ADMIN_NAV} />
        <main id="main" className="admin-main" tabIndex={-1}>
          {staff.mustEnrolMfa ? (
            <>
              <h1>Set up MFA</h1>
              <p>Your organization requires MFA: set up an authenticator app before anything else.</p>
              <MfaEnrolment />
            </>
          ) : (
            children
          )}
        </main>
      </div>
    </div>
  );
}

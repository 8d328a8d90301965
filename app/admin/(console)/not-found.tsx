import Link from "next/link";

/** A partner, webhook or page that does not exist for this distributor (another distributor's looks the same). */
export default function AdminNotFound() {
  return (
    <>
      <h1>Not found</h1>
      <p>There is nothing here for your distributor: the address is wrong, or what it pointed to was deleted.</p>
      <p>
        <Link href="/admin/partners">Partners</Link> · <Link href="/admin/webhooks">Webhooks</Link> · <Link href="/admin">Overview</Link>
      </p>
    </>
  );
}

import Link from "next/link";

/**
 * Any address outside the portal and the admin UI (those have their own): the site's layout, one
 * title (the root layout's), and the ways on.
 */
export default function NotFound() {
  return (
    <main className="landing">
      <h1>Page not found</h1>
      <p className="muted">The address is wrong, or the page has moved.</p>
      <ul>
        <li>
          <Link href="/">Home</Link>
        </li>
        <li>
          <Link href="/portal/sign-in">Customer portal: sign in with your e-mail address</Link>
        </li>
        <li>
          <Link href="/admin">Admin UI for distributor staff</Link>
        </li>
        <li>
          <Link href="/docs">API reference</Link>
        </li>
      </ul>
    </main>
  );
}

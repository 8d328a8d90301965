import Link from "next/link";
import "./landing.css";

/** What the service does, and where each of its three kinds of user goes next. */
export default function Home() {
  return (
    <main className="landing">
      <header>
        <h1>Exposure monitoring</h1>
        <p className="lead">
          Watches organizations&apos; domains and e-mail addresses for appearances in known data breaches, scores their exposure, alerts the
          people concerned, and tells partners through signed webhooks. Partners onboard their customers over a REST API; customers see
          their breaches and what to do in a portal.
        </p>
      </header>

      <div className="audiences">
        <section className="card" aria-labelledby="developers">
          <h2 id="developers">Partner developers</h2>
          <p className="muted">Integrate your platform: onboard customers, read their breaches, receive events.</p>
          <ul>
            <li>
              <Link href="/docs/api">Getting started: conventions, keys, errors</Link>
            </li>
            <li>
              <Link href="/docs/customers">Customers</Link>, <Link href="/docs/breaches">breaches</Link>,{" "}
              <Link href="/docs/webhooks">webhooks</Link>
            </li>
            <li>
              <Link href="/docs/webhooks#receive-webhooks">Receive webhooks</Link>: receivers in TypeScript, Python and PHP
            </li>
            <li>
              <Link href="/docs/reference" prefetch={false}>
                API reference
              </Link>{" "}
              (every path; try them out)
            </li>
            <li>
              <Link href="/api/openapi.json" prefetch={false}>
                OpenAPI document
              </Link>{" "}
              ·{" "}
              <Link href="/api/v1/health" prefetch={false}>
                Health
              </Link>
            </li>
          </ul>
          <p className="note">
            Testing webhooks against a receiver on your own machine (<code>http://localhost:…</code>)? Start the service with{" "}
            <code>WEBHOOK_ALLOW_PRIVATE_URLS=true</code>; otherwise only public https URLs are accepted.
          </p>
        </section>

        <section className="card" aria-labelledby="staff">
          <h2 id="staff">Distributor staff</h2>
          <p className="muted">Manage your partners, their API keys, billing codes and webhooks.</p>
          <p>
            <Link className="button" href="/admin/sign-in">
              Sign in to the admin UI
            </Link>
          </p>
          <ul>
            <li>
              <Link href="/docs/distributors">Distributor API</Link> · <Link href="/docs/admin-ui">Admin UI guide</Link>
            </li>
          </ul>
        </section>

        <section className="card" aria-labelledby="customers">
          <h2 id="customers">Customers</h2>
          <p className="muted">See which of your addresses appeared in breaches, and what to do about each.</p>
          <p>
            <Link className="button" href="/portal/sign-in">
              Sign in with your e-mail
            </Link>
          </p>
          <p className="muted small">We e-mail you a one-time sign-in link. Your provider can also send you one.</p>
        </section>
      </div>

      <footer className="muted small">
        Breach data: <a href="https://haveibeenpwned.com">Have I Been Pwned</a>, licensed CC BY 4.0.
      </footer>
    </main>
  );
}

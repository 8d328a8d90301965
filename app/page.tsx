import Link from "next/link";

export default function Home() {
  return (
    <main className="landing">
      <h1>Exposure monitoring</h1>
      <p className="muted">
        Watches customers&apos; domains and e-mail addresses for appearances in known data breaches, scores the exposure, and tells partners
        through signed webhooks.
      </p>
      <section className="card" aria-labelledby="developers">
        <h2 id="developers">For developers</h2>
        <ul>
          <li>
            <Link href="/docs">API reference</Link> (partner and distributor REST API)
          </li>
          <li>
            <Link href="/api/openapi.json" prefetch={false}>
              OpenAPI document
            </Link>
          </li>
          <li>
            <Link href="/api/v1/health" prefetch={false}>
              Health
            </Link>
          </li>
        </ul>
      </section>
      <p className="muted">
        Breach data: <a href="https://haveibeenpwned.com">Have I Been Pwned</a>, licensed CC BY 4.0.
      </p>
    </main>
  );
}

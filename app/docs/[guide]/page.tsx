import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { config } from "@/server/config";
import { listGuides, renderGuide, type GuideEntry, type GuideGroup } from "@/server/docs/guides";
import "../docs.css";

// The guides of docs/ known when the app is built (server/docs/guides.ts); another name is a 404.
// Rendered per request (the root layout), so the examples name this instance's origin (APP_URL).
export const dynamicParams = false;

export function generateStaticParams() {
  return listGuides().map((guide) => ({ guide: guide.name }));
}

type Props = { params: Promise<{ guide: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const guide = renderGuide((await params).guide);
  return { title: guide ? `${guide.title} · Exposure monitoring` : "Not found" };
}

const GROUPS: GuideGroup[] = ["Partner developers", "Distributors", "Running the service"];

export default async function GuidePage({ params }: Props) {
  const name = (await params).guide;
  const guide = renderGuide(name, config.appUrl());
  if (!guide) notFound();
  const guides = listGuides();
  return (
    <div className="docs">
      <header className="docs-header">
        <Link href="/" className="docs-home">
          Exposure monitoring
        </Link>
        <span className="muted">Documentation</span>
      </header>
      <div className="docs-body">
        <nav className="docs-nav docs-nav-side" aria-label="Guides">
          <GuideList guides={guides} current={name} />
        </nav>
        <details className="docs-nav docs-nav-phone">
          <summary>All guides and the API reference</summary>
          <GuideList guides={guides} current={name} />
        </details>
        <article className="docs-content" dangerouslySetInnerHTML={{ __html: guide.html }} />
      </div>
    </div>
  );
}

function GuideList({ guides, current }: { guides: GuideEntry[]; current: string }) {
  return (
    <>
      <ul>
        <li>
          <Link href="/docs/reference" prefetch={false}>
            API reference (every path; try them out)
          </Link>
        </li>
        <li>
          <Link href="/api/openapi.json" prefetch={false}>
            OpenAPI document
          </Link>
        </li>
      </ul>
      {GROUPS.map((group) => (
        <section key={group}>
          <h2>{group}</h2>
          <ul>
            {guides
              .filter((entry) => entry.group === group)
              .map((entry) => (
                <li key={entry.name}>
                  <Link href={`/docs/${entry.name}`} aria-current={entry.name === current ? "page" : undefined}>
                    {entry.title}
                  </Link>
                </li>
              ))}
          </ul>
        </section>
      ))}
    </>
  );
}

import type { Metadata } from "next";
import { headers } from "next/headers";
import Link from "next/link";
import { notFound } from "next/navigation";
import { breachCategoryPage, kbLocale, LANGUAGE_NAMES } from "@/server/breaches/catalogue/kb";
import { getAppDb } from "@/server/db/instance";
import { LOCALE_CODES } from "@/server/i18n/locales";
import { negotiateLocale } from "@/server/i18n/negotiate";
import "../../kb.css";

// Where a breach category's `link` leads (docs/breaches.md, "Categories"): in `?lang=` or the browser's language.
export const dynamic = "force-dynamic";

type Props = { params: Promise<{ slug: string }>; searchParams: Promise<{ lang?: string | string[] }> };

async function load({ params, searchParams }: Props) {
  const [{ slug }, { lang }] = await Promise.all([params, searchParams]);
  const locale = kbLocale(typeof lang === "string" ? lang : undefined, negotiateLocale((await headers()).get("accept-language")));
  return breachCategoryPage(await getAppDb(), slug, locale);
}

export async function generateMetadata(props: Props): Promise<Metadata> {
  const page = await load(props);
  return { title: page ? `${page.heading} · Exposure monitoring` : "Not found" };
}

export default async function BreachCategoryPage(props: Props) {
  const page = await load(props);
  if (!page) notFound();
  return (
    <main className="kb" lang={page.locale}>
      <p className="kb-home">
        <Link href="/">Exposure monitoring</Link>
      </p>
      <article className="card">
        <h1>{page.heading}</h1>
        <dl className="kb-facts">
          <dt>{page.kindLabel}</dt>
          <dd>{page.kind}</dd>
          <dt>{page.seriousnessLabel}</dt>
          <dd>{page.seriousness}</dd>
        </dl>
        <p>{page.about}</p>
        {page.notShown && <p className="kb-note">{page.notShown}</p>}
        {page.nextSteps.length > 0 && (
          <section aria-labelledby="kb-steps">
            <h2 id="kb-steps">{page.whatToDoLabel}</h2>
            <ul>
              {page.nextSteps.map((step) => (
                <li key={step}>{step}</li>
              ))}
            </ul>
          </section>
        )}
      </article>
      <nav aria-label={page.languagesLabel} className="kb-languages">
        <span>{page.languagesLabel}:</span>
        {LOCALE_CODES.filter((locale) => locale !== page.locale).map((locale) => (
          <Link key={locale} href={`/kb/breach-categories/${page.slug}?lang=${locale}`} hrefLang={locale} lang={locale}>
            {LANGUAGE_NAMES[locale]}
          </Link>
        ))}
      </nav>
    </main>
  );
}

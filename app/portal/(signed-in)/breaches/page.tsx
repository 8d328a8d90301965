import type { Metadata } from "next";
import Link from "next/link";
import { formatDate } from "../../_components/format-date";
import { StatusBadge } from "../../_components/status-badge";
import { UpgradeCard } from "../../_components/upgrade-card";
import { format } from "@/server/i18n/format";
import { BREACH_FILTERS, BREACH_SORTS } from "@/server/portal/view";
import { portalPage, portalTitle } from "../../portal-page";
import styles from "../../portal.module.css";

export async function generateMetadata(): Promise<Metadata> {
  return { title: await portalTitle((t) => t.breaches.title) };
}

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

/** The page's choices from its query (a GET form, so every view has an address and works without script). */
function choicesOf(query: Awaited<SearchParams>) {
  const one = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value) ?? "";
  const filter = BREACH_FILTERS.find((known) => known === one(query.filter)) ?? "all";
  const sort = BREACH_SORTS.find((known) => known === one(query.sort)) ?? "newest";
  const search = one(query.q).trim().slice(0, 254);
  const page = Math.max(1, Number.parseInt(one(query.page), 10) || 1);
  return { filter, sort, search, page };
}

export default async function BreachesPage({ searchParams }: { searchParams: SearchParams }) {
  const { portal, me, t } = await portalPage("/portal/breaches");
  const choices = choicesOf(await searchParams);
  const list = await portal.listBreaches({
    filter: choices.filter,
    sort: choices.sort,
    ...(choices.search ? { search: choices.search } : {}),
    page: choices.page,
  });
  const chosen = choices.filter !== "all" || choices.search !== "";
  const pageCount = Math.max(1, Math.ceil(list.total / list.pageSize));
  const hrefFor = (page: number, search = choices.search) => {
    const query = new URLSearchParams();
    if (choices.filter !== "all") query.set("filter", choices.filter);
    if (choices.sort !== "newest") query.set("sort", choices.sort);
    if (search) query.set("q", search);
    if (page > 1) query.set("page", String(page));
    const text = query.toString();
    return text ? `/portal/breaches?${text}` : "/portal/breaches";
  };
  const from = list.total === 0 ? 0 : (list.page - 1) * list.pageSize + 1;
  const to = Math.min(list.total, list.page * list.pageSize);
  return (
    <>
      <h1>{t.breaches.title}</h1>
      <p className={styles.lead}>{t.breaches.intro}</p>
      <form method="get" action="/portal/breaches" className={styles.filters}>
        <div className={styles.filterField}>
          <label htmlFor="breach-filter">{t.breaches.filter}</label>
          <select id="breach-filter" name="filter" defaultValue={choices.filter}>
            {BREACH_FILTERS.map((filter) => (
              <option key={filter} value={filter}>
                {t.breaches.filters[filter]}
              </option>
            ))}
          </select>
        </div>
        {!list.redacted && (
          <div className={styles.filterField}>
            <label htmlFor="breach-sort">{t.breaches.sort}</label>
            <select id="breach-sort" name="sort" defaultValue={choices.sort}>
              {BREACH_SORTS.map((sort) => (
                <option key={sort} value={sort}>
                  {t.breaches.sorts[sort]}
                </option>
              ))}
            </select>
          </div>
        )}
        <div className={`${styles.filterField} ${styles.filterSearch}`}>
          <label htmlFor="breach-search">{t.breaches.search}</label>
          <input id="breach-search" name="q" type="search" defaultValue={choices.search} maxLength={254} autoComplete="off" />
        </div>
        <button type="submit" className={styles.secondaryButton}>
          {t.breaches.apply}
        </button>
      </form>
      <p className={styles.count} role="status">
        {list.total > 0 ? format(t.breaches.showing, { from, to, total: list.total }) : chosen ? t.breaches.noMatch : t.breaches.none}
        {choices.search ? (
          <>
            {" "}
            <Link href={hrefFor(1, "")} prefetch={false}>
              {t.breaches.clearSearch}
            </Link>
          </>
        ) : null}
      </p>
      <ul className={styles.breachList}>
        {list.redacted
          ? list.breaches.map((breach) => (
              <li key={breach.id} className={styles.breachCard}>
                <div className={styles.breachHead}>
                  <h2>
                    <Link href={`/portal/breaches/${breach.id}`} prefetch={false}>
                      {format(t.breaches.exposureNumber, { number: breach.number })}
                    </Link>
                  </h2>
                  <StatusBadge resolved={breach.resolved} labels={t.breaches} />
                </div>
                <dl className={styles.facts}>
                  <dt>{t.breaches.exposedEmails}</dt>
                  <dd>{breach.emails.join(", ")}</dd>
                </dl>
              </li>
            ))
          : list.breaches.map((breach) => (
              <li key={breach.id} className={styles.breachCard}>
                <div className={styles.breachHead}>
                  <h2>
                    <Link href={`/portal/breaches/${breach.id}`} prefetch={false}>
                      {breach.title}
                    </Link>
                  </h2>
                  <StatusBadge resolved={breach.resolved} labels={t.breaches} />
                </div>
                <dl className={styles.facts}>
                  <dt>{t.breaches.breachDate}</dt>
                  <dd>{formatDate(breach.breachDate, me.locale)}</dd>
                  <dt>{t.breaches.categories}</dt>
                  <dd>
                    <ul className={styles.tags}>
                      {breach.breachCategories.map((category) => (
                        <li key={category} lang="en">
                          {category}
                        </li>
                      ))}
                    </ul>
                  </dd>
                  <dt>{t.breaches.exposedEmails}</dt>
                  <dd>{breach.emails.join(", ")}</dd>
                </dl>
              </li>
            ))}
      </ul>
      {pageCount > 1 && (
        <nav aria-label={t.breaches.pages} className={styles.pager}>
          {list.page > 1 ? (
            <Link href={hrefFor(list.page - 1)} rel="prev" className={styles.secondaryButton} prefetch={false}>
              {t.breaches.previous}
            </Link>
          ) : null}
          <span>
            {list.page} / {pageCount}
          </span>
          {list.page < pageCount ? (
            <Link href={hrefFor(list.page + 1)} rel="next" className={styles.secondaryButton} prefetch={false}>
              {t.breaches.next}
            </Link>
          ) : null}
        </nav>
      )}
      {list.redacted && <UpgradeCard t={t.upgrade} />}
    </>
  );
}

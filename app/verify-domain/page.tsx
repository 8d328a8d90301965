import type { Metadata } from "next";
import { LinkConfirmForm, LinkPage } from "@/app/_components/link-page";
import { getAppDb } from "@/server/db/instance";
import { verificationLinkState } from "@/server/domains/email-link";
import { format } from "@/server/i18n/format";
import { domainTexts } from "@/server/i18n/translations";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Confirm a domain", robots: { index: false } };

/** Where a domain verification e-mail's link leads; the button posts to /api/verify-domain, which sends the browser back here. */
export default async function VerifyDomainPage({ searchParams }: { searchParams: Promise<{ token?: string | string[] }> }) {
  const { token } = await searchParams;
  const tokenText = typeof token === "string" ? token : "";
  const link = await verificationLinkState(await getAppDb(), tokenText);
  const locale = link.valid ? link.locale : "en-GB";
  const texts = domainTexts(locale).page;
  const values: Record<string, string> = link.valid
    ? { domain: link.domain, company: link.companyName, partner: link.partnerName, distributor: link.distributorName }
    : {};
  return (
    <LinkPage locale={locale} title={texts.title}>
      {!link.valid ? (
        <p role="alert">{texts.invalid}</p>
      ) : link.verified && link.state === "used" ? (
        <p role="status">{format(texts.done, values)}</p>
      ) : link.state !== "open" ? (
        <p role="alert">{link.state === "expired" ? texts.expired : texts.used}</p>
      ) : (
        <LinkConfirmForm action="/api/verify-domain" token={tokenText} question={format(texts.question, values)} button={texts.confirm} />
      )}
    </LinkPage>
  );
}

import type { Metadata } from "next";
import { LinkConfirmForm, LinkPage } from "@/app/_components/link-page";
import { linkTokenParam } from "@/app/_lib/link-token";
import { getAppDb } from "@/server/db/instance";
import { mailStopState } from "@/server/domains/mail-stops";
import { format } from "@/server/i18n/format";
import { domainTexts } from "@/server/i18n/translations";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Stop verification e-mails", robots: { index: false } };

/** Where a verification e-mail's "not us: stop" link leads; the button posts to /api/verify-domain/stop, which sends the browser back here. */
export default async function StopVerificationMailsPage({ searchParams }: { searchParams: Promise<{ token?: string | string[] }> }) {
  const { token } = await searchParams;
  const tokenText = linkTokenParam(token, 2_000);
  const stop = await mailStopState(await getAppDb(), tokenText);
  const locale = stop.valid ? stop.locale : "en-GB";
  const texts = domainTexts(locale).stopPage;
  const values: Record<string, string> = stop.valid
    ? { domain: stop.domain, partner: stop.partnerName, distributor: stop.distributorName }
    : {};
  return (
    <LinkPage locale={locale} title={texts.title}>
      {!stop.valid ? (
        <p role="alert">{texts.invalid}</p>
      ) : stop.stopped ? (
        <p role="status">{format(texts.done, values)}</p>
      ) : (
        <LinkConfirmForm
          action="/api/verify-domain/stop"
          token={tokenText}
          question={format(texts.question, values)}
          button={texts.confirm}
        />
      )}
    </LinkPage>
  );
}

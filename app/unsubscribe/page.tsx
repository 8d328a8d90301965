import type { Metadata } from "next";
import { LinkConfirmForm, LinkPage } from "@/app/_components/link-page";
import { linkTokenParam } from "@/app/_lib/link-token";
import { uiCaller } from "@/server/api/ui/handler";
import { notificationTexts } from "@/server/i18n/translations";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Unsubscribe", robots: { index: false } };

/** Where an e-mail's unsubscribe link leads; the button posts to /api/unsubscribe, which sends the browser back here. */
export default async function UnsubscribePage({ searchParams }: { searchParams: Promise<{ token?: string | string[] }> }) {
  const { token } = await searchParams;
  const tokenText = linkTokenParam(token, 2_000);
  const status = await (await uiCaller()).notifications.unsubscribe({ token: tokenText });
  const locale = status.valid ? status.locale : "en-GB";
  const texts = notificationTexts(locale).unsubscribe;
  return (
    <LinkPage locale={locale} title={texts.title}>
      {!status.valid ? (
        <p role="alert">{texts.invalid}</p>
      ) : status.unsubscribed ? (
        <>
          <p role="status">{texts.done(texts.what[status.kind](status.companyName), status.email)}</p>
          <p className="muted">{texts.undo}</p>
        </>
      ) : (
        <LinkConfirmForm
          action="/api/unsubscribe"
          token={tokenText}
          question={texts.question(texts.what[status.kind](status.companyName), status.email)}
          button={texts.button}
        />
      )}
    </LinkPage>
  );
}

import type { LocaleCode } from "../i18n/locales";
import { MUTED, reportWriter } from "./pdf-writer";
import type { ReportBrand } from "./report-brand";
import type { MonthlyReportView } from "./report-view";

/**
 * The monthly report as an A4 PDF of one or two pages. It draws the same view as the e-mail,
 * under the brand's name and colours.
 */
export async function monthlyReportPdf(
  view: MonthlyReportView,
  meta: { locale: LocaleCode; companyName: string; brand: ReportBrand },
): Promise<Buffer> {
  const pdf = reportWriter({
    locale: meta.locale,
    title: view.heading,
    subject: meta.companyName,
    brand: meta.brand,
  });
  pdf.title(view.heading, meta.companyName);
  pdf.paragraph(view.intro);

  pdf.heading(view.threatScore.label);
  pdf.big(view.threatScore.value);
  pdf.paragraph(view.change);
  pdf.paragraph(view.threatScore.scale, MUTED, 9);
  pdf.figures(view.figures);

  for (const section of [view.newBreaches, view.openBreaches, view.fixedBreaches]) {
    if (!section) continue;
    pdf.heading(section.heading);
    if (section.items.length > 0) pdf.bullets(section.items);
    else pdf.paragraph(section.empty);
  }

  pdf.heading(view.mailboxes.heading);
  pdf.paragraph(view.mailboxes.summary);
  pdf.heading(view.assets.heading);
  pdf.paragraph(view.assets.summary);
  if (view.assets.domains.length > 0) {
    pdf.doc.moveDown(0.3);
    pdf.bullets(view.assets.domains);
  }
  return pdf.finish();
}

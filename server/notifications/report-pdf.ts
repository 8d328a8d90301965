import PDFDocument from "pdfkit";
import type { Brand } from "../brand/brand";
import type { LocaleCode } from "../i18n/locales";
import type { MonthlyReportView } from "./report-view";

const MARGIN = 56;
const INK = "#1f2933";
const MUTED = "#52606d";
const RULE = "#d9dee4";

/** Characters the PDF's standard fonts (WinAnsi) cannot draw become "?" rather than wrong glyphs. */
const WIN_ANSI_EXTRAS = new Set("€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ");
function drawable(text: string): string {
  return [...text].map((char) => (char.charCodeAt(0) < 256 || WIN_ANSI_EXTRAS.has(char) ? char : "?")).join("");
}

/** The brand's logo (a PNG, drawn at most 180 x 54 pt) or, with none, its name: the top of a branded report. */
export function drawBrandHeader(doc: PDFKit.PDFDocument, brand: Brand, width: number): void {
  if (brand.source === "default") return;
  if (brand.logo) {
    doc.image(brand.logo.png, MARGIN, doc.y, { fit: [180, 54] });
    doc.y += 62;
  } else {
    doc.font("Helvetica-Bold").fontSize(13).fillColor(brand.primaryColor).text(drawable(brand.name), { width });
    doc.moveDown(0.6);
  }
}

/** The brand's name and support contacts: the end of a report. */
export function drawBrandFooter(doc: PDFKit.PDFDocument, brand: Brand, width: number): void {
  const contacts = [brand.supportEmail, brand.supportPhone, brand.supportUrl].filter(Boolean).join("  ·  ");
  doc.font("Helvetica").fontSize(9).fillColor(MUTED).text(drawable(brand.name), { width });
  if (contacts) doc.text(drawable(contacts), { width });
}

/**
 * The monthly report as a one- or two-page A4 PDF (pdfkit, its standard Helvetica: no font
 * files to ship). It draws the same view as the e-mail, under the partner's brand.
 */
export async function monthlyReportPdf(
  view: MonthlyReportView,
  meta: { locale: LocaleCode; companyName: string; brand: Brand },
): Promise<Buffer> {
  const doc = new PDFDocument({
    size: "A4",
    margin: MARGIN,
    lang: meta.locale,
    displayTitle: true,
    info: { Title: drawable(view.heading), Author: drawable(meta.brand.name), Subject: drawable(meta.companyName) },
  });
  const chunks: Buffer[] = [];
  doc.on("data", (chunk: Buffer) => chunks.push(chunk));
  const finished = new Promise<Buffer>((resolve, reject) => {
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
  });
  const width = doc.page.width - 2 * MARGIN;
  const heading = (text: string, size = 14) => {
    doc.moveDown(0.8).font("Helvetica-Bold").fontSize(size).fillColor(INK).text(drawable(text), { width });
    doc.moveDown(0.3);
  };
  const paragraph = (text: string, color = INK, size = 11) =>
    doc.font("Helvetica").fontSize(size).fillColor(color).text(drawable(text), { width });
  const bullets = (items: string[]) =>
    doc.font("Helvetica").fontSize(11).fillColor(INK).list(items.map(drawable), { width, bulletRadius: 2, textIndent: 12 });

  drawBrandHeader(doc, meta.brand, width);
  doc.font("Helvetica-Bold").fontSize(20).fillColor(INK).text(drawable(view.heading), { width });
  doc.moveDown(0.2);
  paragraph(meta.companyName, MUTED);
  doc.moveDown(0.6);
  paragraph(view.intro);

  heading(view.threatScore.label);
  doc.font("Helvetica-Bold").fontSize(28).fillColor(INK).text(drawable(view.threatScore.value), { width });
  paragraph(view.change);
  paragraph(view.threatScore.scale, MUTED, 9);

  doc.moveDown(0.8);
  for (const figure of view.figures) {
    const top = doc.y;
    doc.font("Helvetica").fontSize(11).fillColor(INK).text(drawable(figure.label), MARGIN, top, { width: 170 });
    doc.font("Helvetica-Bold").text(figure.value, MARGIN + 180, top, { width: 60 });
    doc
      .font("Helvetica")
      .fillColor(MUTED)
      .text(drawable(figure.note), MARGIN + 250, top, { width: width - 250 });
    const bottom = doc.y + 4;
    doc
      .moveTo(MARGIN, bottom)
      .lineTo(MARGIN + width, bottom)
      .strokeColor(RULE)
      .lineWidth(0.5)
      .stroke();
    doc.y = bottom + 6;
  }
  doc.x = MARGIN;

  heading(view.newBreaches.heading);
  if (view.newBreaches.items.length > 0) bullets(view.newBreaches.items);
  else paragraph(view.newBreaches.empty);

  heading(view.assets.heading);
  paragraph(view.assets.summary);
  if (view.assets.domains.length > 0) {
    doc.moveDown(0.3);
    bullets(view.assets.domains);
  }

  doc.moveDown(1.5);
  drawBrandFooter(doc, meta.brand, width);
  doc.end();
  return finished;
}

import PDFDocument from "pdfkit";
import type { LocaleCode } from "../i18n/locales";
import type { ReportBrand } from "./report-brand";

const MARGIN = 56;
export const INK = "#1f2933";
export const MUTED = "#52606d";
const RULE = "#d9dee4";

/** Characters the PDF's standard fonts (WinAnsi) cannot draw become "?" rather than wrong glyphs. */
const WIN_ANSI_EXTRAS = new Set("€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ");
export function drawable(text: string): string {
  return [...text].map((char) => (char.charCodeAt(0) < 256 || WIN_ANSI_EXTRAS.has(char) ? char : "?")).join("");
}

export interface Figure {
  label: string;
  value: string;
  note?: string;
}

/**
 * An A4 report being written with pdfkit's standard Helvetica (no font files to ship): the
 * brand's logo, a title in its colour, the blocks every report is made of, and the brand's name
 * at the end. `finish()` ends the document and resolves to its bytes.
 */
export function reportWriter(meta: { locale: LocaleCode; title: string; subject: string; brand: ReportBrand }) {
  const { brand } = meta;
  const doc = new PDFDocument({
    size: "A4",
    margin: MARGIN,
    lang: meta.locale,
    displayTitle: true,
    info: { Title: drawable(meta.title), Author: drawable(brand.name), Subject: drawable(meta.subject) },
  });
  const chunks: Buffer[] = [];
  doc.on("data", (chunk: Buffer) => chunks.push(chunk));
  const finished = new Promise<Buffer>((resolve, reject) => {
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
  });
  const width = doc.page.width - 2 * MARGIN;

  const paragraph = (text: string, color = INK, size = 11) => {
    doc.font("Helvetica").fontSize(size).fillColor(color).text(drawable(text), MARGIN, doc.y, { width });
  };
  const writer = {
    doc,
    width,
    /** The logo (when the brand has one), the title and the line under it. */
    title(text: string, subtitle: string) {
      if (brand.logoPng) {
        doc.image(brand.logoPng, MARGIN, MARGIN, { fit: [160, 48] });
        doc.y = MARGIN + 60;
      }
      doc.font("Helvetica-Bold").fontSize(20).fillColor(brand.primaryColor).text(drawable(text), MARGIN, doc.y, { width });
      doc.moveDown(0.2);
      paragraph(subtitle, MUTED);
      doc.moveDown(0.6);
    },
    heading(text: string, size = 14) {
      if (doc.y > doc.page.height - MARGIN - 80) doc.addPage();
      doc.moveDown(0.8).font("Helvetica-Bold").fontSize(size).fillColor(brand.primaryColor).text(drawable(text), MARGIN, doc.y, { width });
      doc.moveDown(0.3);
    },
    paragraph,
    big(text: string) {
      doc.font("Helvetica-Bold").fontSize(28).fillColor(INK).text(drawable(text), MARGIN, doc.y, { width });
    },
    bullets(items: readonly string[]) {
      doc
        .font("Helvetica")
        .fontSize(11)
        .fillColor(INK)
        .list(items.map(drawable), MARGIN, doc.y, { width, bulletRadius: 2, textIndent: 12 });
    },
    /** Label, value and note on one ruled line each. */
    figures(rows: readonly Figure[]) {
      doc.moveDown(0.8);
      for (const figure of rows) {
        const top = doc.y;
        doc.font("Helvetica").fontSize(11).fillColor(INK).text(drawable(figure.label), MARGIN, top, { width: 170 });
        const labelBottom = doc.y;
        doc.font("Helvetica-Bold").text(drawable(figure.value), MARGIN + 180, top, { width: 60 });
        if (figure.note)
          doc
            .font("Helvetica")
            .fillColor(MUTED)
            .text(drawable(figure.note), MARGIN + 250, top, { width: width - 250 });
        const bottom = Math.max(doc.y, labelBottom) + 4;
        doc
          .moveTo(MARGIN, bottom)
          .lineTo(MARGIN + width, bottom)
          .strokeColor(RULE)
          .lineWidth(0.5)
          .stroke();
        doc.y = bottom + 6;
      }
      doc.x = MARGIN;
    },
    /** The brand's name and support contacts, small, after the last block. */
    finish(): Promise<Buffer> {
      doc.moveDown(1.5);
      paragraph(brand.name, MUTED, 9);
      if (brand.contacts && brand.contacts.length > 0) paragraph(brand.contacts.join("  ·  "), MUTED, 9);
      doc.end();
      return finished;
    },
  };
  return writer;
}

export type ReportWriter = ReturnType<typeof reportWriter>;

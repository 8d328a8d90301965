import { drawable, MUTED, type ReportWriter } from "./pdf-writer";

/** The top of the threat score's scale (docs/threat-score.md; customers/ owns the score, a layer above). */
const MAX_SCORE_ON_CHART = 97;
const HEIGHT = 140;
const AXIS_WIDTH = 28;
const GRID = "#e4e7eb";

/**
 * The threat score over time as a line on a 0 to 97 scale, in the brand's colour, with the first,
 * middle and last dates under it. Points are evenly spaced in time (report-facts sample them so).
 */
export function scoreChart(writer: ReportWriter, points: ReadonlyArray<{ label: string; score: number }>, color: string) {
  const { doc, width } = writer;
  if (doc.y > doc.page.height - 56 - HEIGHT - 40) doc.addPage();
  const left = doc.x + AXIS_WIDTH;
  const top = doc.y + 6;
  const plotWidth = width - AXIS_WIDTH;
  const yOf = (score: number) => top + HEIGHT - (score / MAX_SCORE_ON_CHART) * HEIGHT;
  doc.font("Helvetica").fontSize(8).fillColor(MUTED);
  for (const tick of [0, 25, 50, 75, MAX_SCORE_ON_CHART]) {
    doc
      .moveTo(left, yOf(tick))
      .lineTo(left + plotWidth, yOf(tick))
      .strokeColor(GRID)
      .lineWidth(0.5)
      .stroke();
    doc.text(String(tick), left - AXIS_WIDTH, yOf(tick) - 4, { width: AXIS_WIDTH - 6, align: "right" });
  }
  const xOf = (index: number) => left + (points.length <= 1 ? plotWidth / 2 : (index / (points.length - 1)) * plotWidth);
  if (points.length > 0) {
    doc.moveTo(xOf(0), yOf(points[0]!.score));
    points.forEach((point, index) => doc.lineTo(xOf(index), yOf(point.score)));
    doc.strokeColor(color).lineWidth(2).stroke();
    if (points.length === 1) doc.circle(xOf(0), yOf(points[0]!.score), 2.5).fillColor(color).fill();
  }
  const labelTop = top + HEIGHT + 4;
  const shown = points.length <= 1 ? [0] : [0, Math.floor((points.length - 1) / 2), points.length - 1];
  doc.font("Helvetica").fontSize(8).fillColor(MUTED);
  for (const index of new Set(shown)) {
    if (!points[index]) continue;
    const align = index === 0 ? "left" : index === points.length - 1 ? "right" : "center";
    const x = align === "left" ? xOf(index) : align === "right" ? xOf(index) - 90 : xOf(index) - 45;
    doc.text(drawable(points[index].label), x, labelTop, { width: 90, align });
  }
  doc.x = left - AXIS_WIDTH;
  doc.y = labelTop + 14;
}

import type { TimelineYear } from "@/server/portal/view";
import type { PortalMessages } from "@/server/i18n/translations";
import { format } from "@/server/i18n/format";
import styles from "../portal.module.css";
import { yAxisTicks } from "./chart-scale";

const WIDTH = 720;
const HEIGHT = 240;
const PLOT = { left: 34, right: 8, top: 12, bottom: 30 };

/**
 * Breaches by the year they happened, not fixed stacked on fixed: an SVG for the eye (each bar
 * with a tooltip), and the same figures as a table for screen readers.
 */
export function ExposureChart({
  timeline,
  t,
  labels,
}: {
  timeline: TimelineYear[];
  t: PortalMessages["overview"];
  labels: { fixed: string; notFixed: string };
}) {
  const yearLabel = (bar: TimelineYear) => (bar.includesEarlier ? format(t.timelineEarlier, { year: bar.year }) : String(bar.year));
  const ticks = yAxisTicks(Math.max(...timeline.map((bar) => bar.unresolved + bar.resolved)));
  const highest = ticks[ticks.length - 1]!;
  const plotWidth = WIDTH - PLOT.left - PLOT.right;
  const plotHeight = HEIGHT - PLOT.top - PLOT.bottom;
  const slot = plotWidth / timeline.length;
  const barWidth = Math.min(40, slot * 0.7);
  const y = (count: number) => PLOT.top + plotHeight - (count / highest) * plotHeight;
  const labelEvery = Math.ceil(timeline.length / 8);

  return (
    <div className={styles.chart}>
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} aria-hidden="true" focusable="false">
        {ticks.map((tick) => (
          <g key={tick}>
            <line x1={PLOT.left} x2={WIDTH - PLOT.right} y1={y(tick)} y2={y(tick)} className={styles.chartGrid} />
            <text x={PLOT.left - 6} y={y(tick) + 4} textAnchor="end" className={styles.chartAxis}>
              {tick}
            </text>
          </g>
        ))}
        {timeline.map((bar, index) => {
          const x = PLOT.left + index * slot + (slot - barWidth) / 2;
          const label = format(t.timelineBar, { year: yearLabel(bar), notFixed: bar.unresolved, fixed: bar.resolved });
          return (
            <g key={bar.year}>
              <title>{label}</title>
              <rect x={x} width={barWidth} y={y(bar.resolved)} height={y(0) - y(bar.resolved)} className={styles.barResolved} />
              <rect
                x={x}
                width={barWidth}
                y={y(bar.resolved + bar.unresolved)}
                height={y(bar.resolved) - y(bar.resolved + bar.unresolved)}
                className={styles.barUnresolved}
              />
              {index % labelEvery === 0 && (
                <text
                  x={x + barWidth / 2}
                  y={HEIGHT - 10}
                  textAnchor="middle"
                  className={`${styles.chartAxis} ${(index / labelEvery) % 2 === 1 ? styles.chartAxisMinor : ""}`}
                >
                  {bar.includesEarlier ? `≤${bar.year}` : bar.year}
                </text>
              )}
            </g>
          );
        })}
      </svg>
      <ul className={styles.legend} aria-hidden="true">
        <li>
          <span className={`${styles.swatch} ${styles.barUnresolved}`} /> {labels.notFixed}
        </li>
        <li>
          <span className={`${styles.swatch} ${styles.barResolved}`} /> {labels.fixed}
        </li>
      </ul>
      <table className={styles.visuallyHidden}>
        <caption>{t.timelineTitle}</caption>
        <thead>
          <tr>
            <th scope="col">{t.timelineYear}</th>
            <th scope="col">{labels.notFixed}</th>
            <th scope="col">{labels.fixed}</th>
          </tr>
        </thead>
        <tbody>
          {timeline.map((bar) => (
            <tr key={bar.year}>
              <th scope="row">{yearLabel(bar)}</th>
              <td>{bar.unresolved}</td>
              <td>{bar.resolved}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

import type { PortalMessages } from "@/server/i18n/translations";
import { format } from "@/server/i18n/format";
import styles from "../portal.module.css";

type Level = keyof PortalMessages["overview"]["levels"];

export function threatLevel(score: number, max: number): Level {
  if (score <= 0) return "none";
  const share = score / max;
  if (share < 0.25) return "low";
  if (share < 0.5) return "moderate";
  if (share < 0.75) return "high";
  return "critical";
}

/** The threat score (0 to max) as a half-circle gauge, with its number and level in text. */
export function ThreatGauge({ score, max, t }: { score: number; max: number; t: PortalMessages["overview"] }) {
  const level = threatLevel(score, max);
  const share = Math.min(1, Math.max(0, score / max));
  const valueText = format(t.threatScoreOf, { score, max });
  const arc = "M 20 100 A 80 80 0 0 1 180 100";
  return (
    <figure className={styles.gauge}>
      <svg viewBox="0 0 200 118" role="img" aria-label={`${t.threatScore}: ${valueText}, ${t.levels[level]}`}>
        <path d={arc} pathLength={100} className={styles.gaugeTrack} />
        {share > 0 && (
          <path
            d={arc}
            pathLength={100}
            strokeDasharray={`${share * 100} 100`}
            className={`${styles.gaugeValue} ${styles[`level-${level}`]}`}
          />
        )}
        <text x="100" y="90" textAnchor="middle" className={styles.gaugeNumber}>
          {score}
        </text>
        <text x="100" y="112" textAnchor="middle" className={styles.gaugeScale}>
          {valueText}
        </text>
      </svg>
      <figcaption className={`${styles.levelText} ${styles[`level-${level}`]}`}>{t.levels[level]}</figcaption>
    </figure>
  );
}

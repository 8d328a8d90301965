import type { PortalMessages } from "@/server/i18n/translations";
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

/** The threat score (0 to max) as a half-circle gauge with its number, and its level in words. */
export function ThreatGauge({ score, max, t }: { score: number; max: number; t: PortalMessages["overview"] }) {
  const level = threatLevel(score, max);
  const share = Math.min(1, Math.max(0, score / max));
  const arc = "M 20 100 A 80 80 0 0 1 180 100";
  return (
    <figure className={styles.gauge}>
      <svg viewBox="0 0 200 108" role="img" aria-label={`${t.threatScore}: ${score}, ${t.levels[level]}`}>
        <path d={arc} pathLength={100} className={styles.gaugeTrack} />
        {share > 0 && (
          <path
            d={arc}
            pathLength={100}
            strokeDasharray={`${share * 100} 100`}
            className={`${styles.gaugeValue} ${styles[`level-${level}`]}`}
          />
        )}
        <text x="100" y="96" textAnchor="middle" className={styles.gaugeNumber}>
          {score}
        </text>
      </svg>
      <figcaption>
        <span className={`${styles.levelText} ${styles[`level-${level}`]}`}>{t.levels[level]}</span>
        <span className={styles.levelExplained}>{t.levelExplained[level]}</span>
      </figcaption>
    </figure>
  );
}

import styles from "../portal.module.css";

export function StatusBadge({ resolved, labels }: { resolved: boolean; labels: { fixed: string; notFixed: string } }) {
  return (
    <span className={`${styles.badge} ${resolved ? styles.badgeFixed : styles.badgeOpen}`}>
      {resolved ? labels.fixed : labels.notFixed}
    </span>
  );
}

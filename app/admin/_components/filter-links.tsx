import Link from "next/link";

/** "never-succeeded" as the admin UI writes a state in a chip: "Never succeeded". */
export function sentenceCase(value: string): string {
  const words = value.replace(/[-_]+/g, " ");
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/**
 * A row of links that filter a list by one field: "all" first, then each option; the one in
 * force is marked as the current page.
 */
export function FilterLinks<T extends string>({
  label,
  options,
  current,
  href,
  allLabel = "All",
  labelOf = sentenceCase,
}: {
  /** The navigation's accessible name, e.g. "Filter by status". */
  label: string;
  options: readonly T[];
  current: T | undefined;
  href: (option: T | undefined) => string;
  allLabel?: string;
  labelOf?: (option: T) => string;
}) {
  return (
    <nav aria-label={label} className="filters">
      <ul>
        {[undefined, ...options].map((option) => (
          <li key={option ?? "all"}>
            <Link href={href(option)} aria-current={option === current ? "page" : undefined}>
              {option ? labelOf(option) : allLabel}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

import Link from "next/link";

/** Previous/next links for a paged list, keeping the other query parameters. */
export function Pager({
  basePath,
  query = {},
  pagination,
}: {
  basePath: string;
  query?: Record<string, string | undefined>;
  pagination: { page: number; pageSize: number; totalCount: number; hasNextPage: boolean };
}) {
  const { page, pageSize, totalCount, hasNextPage } = pagination;
  const pages = Math.max(1, Math.ceil(totalCount / pageSize));
  const href = (target: number) => {
    const params = new URLSearchParams(
      Object.entries({ ...query, page: target > 1 ? String(target) : undefined }).filter((entry): entry is [string, string] =>
        Boolean(entry[1]),
      ),
    );
    const search = params.toString();
    return search ? `${basePath}?${search}` : basePath;
  };
  if (pages <= 1 && page <= 1) return null;
  return (
    <nav className="pager" aria-label="Pages">
      {page > 1 ? (
        <Link href={href(page - 1)} rel="prev">
          Previous
        </Link>
      ) : (
        <span aria-hidden="true" className="pager-disabled">
          Previous
        </span>
      )}
      <span>
        Page {page} of {pages}
      </span>
      {hasNextPage ? (
        <Link href={href(page + 1)} rel="next">
          Next
        </Link>
      ) : (
        <span aria-hidden="true" className="pager-disabled">
          Next
        </span>
      )}
    </nav>
  );
}

import { formatDateTime } from "../_lib/format";

/** An instant as "2026-11-21 22:15 UTC" (never wrapped), machine-readable for assistive technology; "—" for none. */
export function DateTime({ iso }: { iso: string | null | undefined }) {
  return iso ? (
    <time dateTime={iso} className="nowrap">
      {formatDateTime(iso)}
    </time>
  ) : (
    <>—</>
  );
}

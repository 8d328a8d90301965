import Link from "next/link";
import { portalText } from "../portal-page";

/** A portal address that does not exist (or is not the customer's), inside the portal's own layout. */
export default async function PortalNotFound() {
  const t = await portalText((t) => t);
  return (
    <>
      <h1>{t.notFound.title}</h1>
      <p>{t.notFound.body}</p>
      <p>
        <Link href="/portal">{t.notFound.back}</Link> · <Link href="/portal/breaches">{t.breach.allBreaches}</Link>
      </p>
    </>
  );
}

import Link from "next/link";
import { portalText } from "./portal-page";

/** A breach (or page) of the portal that does not exist or is not the customer's. */
export default async function PortalNotFound() {
  const t = await portalText((t) => t.breach);
  return (
    <>
      <h1>{t.notFound}</h1>
      <p>
        <Link href="/portal/breaches">{t.allBreaches}</Link>
      </p>
    </>
  );
}

import Link from "next/link";
import { portalText } from "../../../portal-page";

/** A breach that does not exist or is not the customer's (the two look the same). */
export default async function BreachNotFound() {
  const t = await portalText((t) => t);
  return (
    <>
      <h1>{t.breach.notFound}</h1>
      <p>
        <Link href="/portal/breaches">{t.breach.allBreaches}</Link> · <Link href="/portal">{t.notFound.back}</Link>
      </p>
    </>
  );
}

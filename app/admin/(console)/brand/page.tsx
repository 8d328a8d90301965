import type { Metadata } from "next";
import { BrandForm } from "../../_components/brand-form";
import { adminApi } from "../../_lib/server";

export const metadata: Metadata = { title: "Brand" };

/** The distributor's default brand: what its partners' customers see where a partner set none of its own. */
export default async function BrandPage() {
  const api = await adminApi();
  const brand = await api.admin.brand.distributor();
  return (
    <>
      <h1>Default brand</h1>
      <p>
        The name, logo, colour and contacts your partners&apos; customers see in the portal, e-mails and PDFs where the partner set no brand
        of its own (field by field). Each partner&apos;s own brand is on its page.
      </p>
      <BrandForm brand={brand} />
    </>
  );
}

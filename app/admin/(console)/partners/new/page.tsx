import type { Metadata } from "next";
import Link from "next/link";
import { PartnerForm } from "../../../_components/partner-form";
import { adminApi } from "../../../_lib/server";

export const metadata: Metadata = { title: "New partner" };

export default async function NewPartnerPage() {
  const billingCodes = await (await adminApi()).admin.billingCodes.list({ pageSize: 100 });
  return (
    <>
      <p className="breadcrumbs">
        <Link href="/admin/partners">Partners</Link>
      </p>
      <h1>New partner</h1>
      <p className="muted">Only the name is required. Issue the partner&apos;s API key on its page once it is created.</p>
      <PartnerForm billingCodes={billingCodes.data} />
    </>
  );
}

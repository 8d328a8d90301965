import type { Metadata } from "next";
import Link from "next/link";
import { ApiKeys } from "../../../_components/api-keys";
import { BrandForm } from "../../../_components/brand-form";
import { CopyButton } from "../../../_components/copy-button";
import { PartnerChannels } from "../../../_components/partner-channels";
import { PsaConnection } from "../../../_components/psa-connection";
import { PartnerForm } from "../../../_components/partner-form";
import { adminApi, foundOr404, textParam, type SearchParams } from "../../../_lib/server";
import { EVENT_TYPES } from "@/server/events/outbox";
import { roleAllows } from "@/server/auth/staff-roles";

export const metadata: Metadata = { title: "Partner" };

export default async function PartnerPage({
  params,
  searchParams,
}: {
  params: Promise<{ partnerId: string }>;
  searchParams: SearchParams;
}) {
  const { partnerId } = await params;
  const api = await adminApi();
  const partner = await foundOr404(api.admin.partners.get({ partnerId }));
  const [{ staff }, keys, channels, psa, billingCodes, brand] = await Promise.all([
    api.admin.me(),
    api.admin.partners.apiKeys({ partnerId }),
    api.admin.channels.list({ partnerId }),
    api.admin.psa.get({ partnerId }),
    api.admin.billingCodes.list({ pageSize: 100 }),
    api.admin.brand.partner({ partnerId }),
  ]);
  const created = textParam((await searchParams).created);
  return (
    <>
      <p className="breadcrumbs">
        <Link href="/admin/partners">Partners</Link>
      </p>
      <div className="page-heading">
        <h1>{partner.name}</h1>
        <Link className="button" href={`/admin/partners/${partner.uuid}/customers`}>
          Customers
        </Link>
      </div>
      {created ? <p role="status">Partner created. Issue its API key below.</p> : null}
      <p>
        Partner ID (<code>SW-PARTNER-ID</code>): <code data-testid="partner-id">{partner.uuid}</code>{" "}
        <CopyButton value={partner.uuid} label="Copy ID" />
      </p>

      <section aria-labelledby="api-keys">
        <h2 id="api-keys">API keys</h2>
        <ApiKeys partnerId={partner.uuid} partnerName={partner.name} keys={keys} />
      </section>

      <section aria-labelledby="channels">
        <h2 id="channels">Chat and SIEM channels</h2>
        <PartnerChannels partnerId={partner.uuid} channels={channels} eventTypes={[...EVENT_TYPES]} />
      </section>

      <section aria-labelledby="psa">
        <h2 id="psa">PSA</h2>
        <PsaConnection partnerId={partner.uuid} psa={psa} canEdit={roleAllows("admin", staff.role)} />
      </section>

      <section aria-labelledby="details">
        <h2 id="details">Details</h2>
        <PartnerForm partner={partner} billingCodes={billingCodes.data} />
      </section>

      <section aria-labelledby="brand">
        <h2 id="brand">Brand</h2>
        <p>What this partner&apos;s customers see in the portal, e-mails and PDFs; empty fields use your default brand.</p>
        <BrandForm brand={brand} partnerId={partner.uuid} />
      </section>
    </>
  );
}

-- CreateTable
CREATE TABLE "withheld_addresses" (
    "asset_id" UUID NOT NULL,
    "customer_id" UUID NOT NULL,
    "domain" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "withheld_addresses_pkey" PRIMARY KEY ("asset_id")
);

-- CreateTable
CREATE TABLE "disclosure_grants" (
    "partner_id" UUID NOT NULL,
    "email" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "disclosure_grants_pkey" PRIMARY KEY ("partner_id","email")
);

-- CreateIndex
CREATE INDEX "withheld_addresses_customer_id_domain_idx" ON "withheld_addresses"("customer_id", "domain");

-- AddForeignKey
ALTER TABLE "withheld_addresses" ADD CONSTRAINT "withheld_addresses_asset_id_fkey" FOREIGN KEY ("asset_id") REFERENCES "monitored_assets"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "withheld_addresses" ADD CONSTRAINT "withheld_addresses_customer_id_fkey" FOREIGN KEY ("customer_id") REFERENCES "customers"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "disclosure_grants" ADD CONSTRAINT "disclosure_grants_partner_id_fkey" FOREIGN KEY ("partner_id") REFERENCES "partners"("id") ON DELETE CASCADE ON UPDATE CASCADE;

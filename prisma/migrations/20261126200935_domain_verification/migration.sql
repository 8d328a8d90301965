-- CreateEnum
CREATE TYPE "domain_policy" AS ENUM ('verified', 'trusted');

-- CreateEnum
CREATE TYPE "domain_verification_status" AS ENUM ('unverified', 'verified');

-- CreateEnum
CREATE TYPE "domain_verification_method" AS ENUM ('dns', 'email', 'staff');

-- AlterTable
ALTER TABLE "distributors" ADD COLUMN     "domain_policy" "domain_policy" NOT NULL DEFAULT 'trusted';

-- CreateTable
CREATE TABLE "customer_domains" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "customer_id" UUID NOT NULL,
    "domain" TEXT NOT NULL,
    "status" "domain_verification_status" NOT NULL DEFAULT 'unverified',
    "method" "domain_verification_method",
    "verified_at" TIMESTAMPTZ(3),
    "verified_by" TEXT,
    "note" TEXT,
    "dns_token" TEXT NOT NULL DEFAULT replace((gen_random_uuid())::text, '-'::text, ''::text),
    "last_checked_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "customer_domains_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "domain_verification_links" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "customer_domain_id" UUID NOT NULL,
    "token_hash" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "used_at" TIMESTAMPTZ(3),

    CONSTRAINT "domain_verification_links_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "withheld_exposures" (
    "customer_id" UUID NOT NULL,
    "email" TEXT NOT NULL,
    "breach_id" UUID NOT NULL,
    "domain" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "withheld_exposures_pkey" PRIMARY KEY ("customer_id","email","breach_id")
);

-- CreateIndex
CREATE UNIQUE INDEX "customer_domains_dns_token_key" ON "customer_domains"("dns_token");

-- CreateIndex
CREATE INDEX "customer_domains_domain_idx" ON "customer_domains"("domain");

-- CreateIndex
CREATE INDEX "customer_domains_status_created_at_idx" ON "customer_domains"("status", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "customer_domains_customer_id_domain_key" ON "customer_domains"("customer_id", "domain");

-- CreateIndex
CREATE UNIQUE INDEX "domain_verification_links_token_hash_key" ON "domain_verification_links"("token_hash");

-- CreateIndex
CREATE INDEX "domain_verification_links_customer_domain_id_idx" ON "domain_verification_links"("customer_domain_id");

-- CreateIndex
CREATE INDEX "withheld_exposures_customer_id_domain_idx" ON "withheld_exposures"("customer_id", "domain");

-- AddForeignKey
ALTER TABLE "customer_domains" ADD CONSTRAINT "customer_domains_customer_id_fkey" FOREIGN KEY ("customer_id") REFERENCES "customers"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "domain_verification_links" ADD CONSTRAINT "domain_verification_links_customer_domain_id_fkey" FOREIGN KEY ("customer_domain_id") REFERENCES "customer_domains"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "withheld_exposures" ADD CONSTRAINT "withheld_exposures_customer_id_fkey" FOREIGN KEY ("customer_id") REFERENCES "customers"("id") ON DELETE CASCADE ON UPDATE CASCADE;

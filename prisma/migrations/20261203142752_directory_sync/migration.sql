-- CreateEnum
CREATE TYPE "directory_provider" AS ENUM ('microsoft365');

-- CreateEnum
CREATE TYPE "directory_state" AS ENUM ('syncing', 'ok', 'failing');

-- AlterEnum
ALTER TYPE "asset_source" ADD VALUE 'directory';

-- AlterEnum
ALTER TYPE "domain_verification_method" ADD VALUE 'directory';

-- AlterTable
ALTER TABLE "monitored_assets" ADD COLUMN     "active" BOOLEAN NOT NULL DEFAULT true;

-- CreateTable
CREATE TABLE "directory_connections" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "customer_id" UUID NOT NULL,
    "provider" "directory_provider" NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "client_id" TEXT NOT NULL,
    "client_secret_ciphertext" TEXT NOT NULL,
    "group_id" TEXT,
    "state" "directory_state" NOT NULL DEFAULT 'syncing',
    "last_sync_at" TIMESTAMPTZ(3),
    "last_error" TEXT,
    "verified_domains" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "delta_cursor" TEXT,
    "run_id" UUID,
    "run_phase" TEXT,
    "run_full" BOOLEAN NOT NULL DEFAULT false,
    "run_cursor" TEXT,
    "run_lease_until" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "directory_connections_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "directory_users" (
    "connection_id" UUID NOT NULL,
    "external_id" TEXT NOT NULL,
    "display_name" TEXT,
    "mail" TEXT,
    "proxy_addresses" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "guest" BOOLEAN NOT NULL DEFAULT false,
    "deleted" BOOLEAN NOT NULL DEFAULT false,
    "in_group" BOOLEAN NOT NULL DEFAULT true,
    "addresses" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "dirty" BOOLEAN NOT NULL DEFAULT true,
    "seen_run_id" UUID,
    "member_run_id" UUID,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "directory_users_pkey" PRIMARY KEY ("connection_id","external_id")
);

-- CreateIndex
CREATE UNIQUE INDEX "directory_connections_customer_id_key" ON "directory_connections"("customer_id");

-- CreateIndex
CREATE INDEX "directory_connections_state_last_sync_at_idx" ON "directory_connections"("state", "last_sync_at");

-- CreateIndex
CREATE INDEX "directory_users_connection_id_dirty_idx" ON "directory_users"("connection_id", "dirty");

-- CreateIndex
CREATE INDEX "directory_users_addresses_idx" ON "directory_users" USING GIN ("addresses");

-- AddForeignKey
ALTER TABLE "directory_connections" ADD CONSTRAINT "directory_connections_customer_id_fkey" FOREIGN KEY ("customer_id") REFERENCES "customers"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "directory_users" ADD CONSTRAINT "directory_users_connection_id_fkey" FOREIGN KEY ("connection_id") REFERENCES "directory_connections"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- CreateEnum
CREATE TYPE "psa_provider" AS ENUM ('connectwise', 'autotask', 'halopsa');

-- CreateEnum
CREATE TYPE "psa_state" AS ENUM ('ok', 'failing');

-- CreateTable
CREATE TABLE "psa_connections" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "partner_id" UUID NOT NULL,
    "provider" "psa_provider" NOT NULL,
    "base_url" TEXT NOT NULL,
    "settings" JSONB NOT NULL,
    "credentials_ciphertext" TEXT NOT NULL,
    "ticket_per_mailbox" BOOLEAN NOT NULL DEFAULT false,
    "state" "psa_state" NOT NULL DEFAULT 'ok',
    "failing_since" TIMESTAMPTZ(3),
    "last_error" TEXT,
    "last_polled_at" TIMESTAMPTZ(3),
    "run_lease_until" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "psa_connections_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "psa_customer_companies" (
    "customer_id" UUID NOT NULL,
    "company_id" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "psa_customer_companies_pkey" PRIMARY KEY ("customer_id")
);

-- CreateTable
CREATE TABLE "psa_tickets" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "connection_id" UUID NOT NULL,
    "customer_id" UUID NOT NULL,
    "breach_instance_id" UUID NOT NULL,
    "mailbox" TEXT NOT NULL DEFAULT '',
    "ticket_key" TEXT NOT NULL,
    "external_id" TEXT,
    "company_id" TEXT NOT NULL,
    "mailboxes_sent" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "create_attempts" INTEGER NOT NULL DEFAULT 0,
    "claimed_until" TIMESTAMPTZ(3),
    "closed_at" TIMESTAMPTZ(3),
    "closed_by" TEXT,
    "failures" INTEGER NOT NULL DEFAULT 0,
    "next_attempt_at" TIMESTAMPTZ(3),
    "last_error" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "psa_tickets_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "psa_connections_partner_id_key" ON "psa_connections"("partner_id");

-- CreateIndex
CREATE UNIQUE INDEX "psa_tickets_ticket_key_key" ON "psa_tickets"("ticket_key");

-- CreateIndex
CREATE INDEX "psa_tickets_breach_instance_id_idx" ON "psa_tickets"("breach_instance_id");

-- CreateIndex
CREATE INDEX "psa_tickets_customer_id_idx" ON "psa_tickets"("customer_id");

-- CreateIndex
CREATE UNIQUE INDEX "psa_tickets_connection_id_breach_instance_id_mailbox_key" ON "psa_tickets"("connection_id", "breach_instance_id", "mailbox");

-- AddForeignKey
ALTER TABLE "psa_connections" ADD CONSTRAINT "psa_connections_partner_id_fkey" FOREIGN KEY ("partner_id") REFERENCES "partners"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "psa_customer_companies" ADD CONSTRAINT "psa_customer_companies_customer_id_fkey" FOREIGN KEY ("customer_id") REFERENCES "customers"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "psa_tickets" ADD CONSTRAINT "psa_tickets_connection_id_fkey" FOREIGN KEY ("connection_id") REFERENCES "psa_connections"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "psa_tickets" ADD CONSTRAINT "psa_tickets_customer_id_fkey" FOREIGN KEY ("customer_id") REFERENCES "customers"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "psa_tickets" ADD CONSTRAINT "psa_tickets_breach_instance_id_fkey" FOREIGN KEY ("breach_instance_id") REFERENCES "customer_breaches"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AlterTable
ALTER TABLE "billing_codes" ADD COLUMN     "currency" TEXT NOT NULL DEFAULT 'EUR',
ADD COLUMN     "retired_at" TIMESTAMPTZ(3),
ADD COLUMN     "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP;

-- CreateTable
CREATE TABLE "staff_audit_entries" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "distributor_id" UUID NOT NULL,
    "staff_user_id" UUID,
    "staff_email" TEXT NOT NULL,
    "action" TEXT NOT NULL,
    "customer_id" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "staff_audit_entries_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "staff_audit_entries_customer_id_created_at_idx" ON "staff_audit_entries"("customer_id", "created_at" DESC);

-- CreateIndex
CREATE INDEX "staff_audit_entries_distributor_id_created_at_idx" ON "staff_audit_entries"("distributor_id", "created_at" DESC);

-- CreateIndex
CREATE INDEX "customers_alert_recipients_idx" ON "customers" USING GIN ("alert_recipients");

-- AddForeignKey
ALTER TABLE "staff_audit_entries" ADD CONSTRAINT "staff_audit_entries_distributor_id_fkey" FOREIGN KEY ("distributor_id") REFERENCES "distributors"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "staff_audit_entries" ADD CONSTRAINT "staff_audit_entries_staff_user_id_fkey" FOREIGN KEY ("staff_user_id") REFERENCES "staff_users"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "staff_audit_entries" ADD CONSTRAINT "staff_audit_entries_customer_id_fkey" FOREIGN KEY ("customer_id") REFERENCES "customers"("id") ON DELETE CASCADE ON UPDATE CASCADE;

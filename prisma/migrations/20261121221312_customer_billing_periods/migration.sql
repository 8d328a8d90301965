-- CreateTable
CREATE TABLE "customer_billing_periods" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "customer_id" UUID NOT NULL,
    "partner_id" UUID NOT NULL,
    "plan_id" UUID NOT NULL,
    "started_at" TIMESTAMPTZ(3) NOT NULL,
    "ended_at" TIMESTAMPTZ(3),

    CONSTRAINT "customer_billing_periods_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "customer_billing_periods_customer_id_ended_at_idx" ON "customer_billing_periods"("customer_id", "ended_at");

-- CreateIndex
CREATE INDEX "customer_billing_periods_partner_id_started_at_idx" ON "customer_billing_periods"("partner_id", "started_at");

-- AddForeignKey
ALTER TABLE "customer_billing_periods" ADD CONSTRAINT "customer_billing_periods_customer_id_fkey" FOREIGN KEY ("customer_id") REFERENCES "customers"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "customer_billing_periods" ADD CONSTRAINT "customer_billing_periods_partner_id_fkey" FOREIGN KEY ("partner_id") REFERENCES "partners"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "customer_billing_periods" ADD CONSTRAINT "customer_billing_periods_plan_id_fkey" FOREIGN KEY ("plan_id") REFERENCES "plans"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

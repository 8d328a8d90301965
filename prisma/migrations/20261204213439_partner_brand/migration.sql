-- CreateTable
CREATE TABLE "brands" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "partner_id" UUID,
    "distributor_id" UUID,
    "name" TEXT,
    "logo_png" BYTEA,
    "primary_color" TEXT,
    "support_email" TEXT,
    "support_phone" TEXT,
    "support_url" TEXT,
    "sender_name" TEXT,
    "reply_to" TEXT,
    "portal_host" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "brands_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "brands_partner_id_key" ON "brands"("partner_id");

-- CreateIndex
CREATE UNIQUE INDEX "brands_distributor_id_key" ON "brands"("distributor_id");

-- CreateIndex
CREATE UNIQUE INDEX "brands_portal_host_key" ON "brands"("portal_host");

-- AddForeignKey
ALTER TABLE "brands" ADD CONSTRAINT "brands_partner_id_fkey" FOREIGN KEY ("partner_id") REFERENCES "partners"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "brands" ADD CONSTRAINT "brands_distributor_id_fkey" FOREIGN KEY ("distributor_id") REFERENCES "distributors"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- CreateTable
CREATE TABLE "domain_mail_stops" (
    "partner_id" UUID NOT NULL,
    "domain" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "domain_mail_stops_pkey" PRIMARY KEY ("partner_id","domain")
);

-- AddForeignKey
ALTER TABLE "domain_mail_stops" ADD CONSTRAINT "domain_mail_stops_partner_id_fkey" FOREIGN KEY ("partner_id") REFERENCES "partners"("id") ON DELETE CASCADE ON UPDATE CASCADE;

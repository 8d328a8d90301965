-- CreateTable
CREATE TABLE "breaches" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "name" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "domain" TEXT NOT NULL DEFAULT '',
    "breach_date" DATE NOT NULL,
    "added_date" TIMESTAMPTZ(3) NOT NULL,
    "modified_date" TIMESTAMPTZ(3) NOT NULL,
    "pwn_count" BIGINT NOT NULL DEFAULT 0,
    "description_html" TEXT NOT NULL DEFAULT '',
    "data_classes" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "logo_path" TEXT,
    "attribution" TEXT,
    "disclosure_url" TEXT,
    "is_verified" BOOLEAN NOT NULL DEFAULT true,
    "is_fabricated" BOOLEAN NOT NULL DEFAULT false,
    "is_sensitive" BOOLEAN NOT NULL DEFAULT false,
    "is_retired" BOOLEAN NOT NULL DEFAULT false,
    "is_spam_list" BOOLEAN NOT NULL DEFAULT false,
    "is_malware" BOOLEAN NOT NULL DEFAULT false,
    "is_subscription_free" BOOLEAN NOT NULL DEFAULT false,
    "is_stealer_log" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "breaches_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "customer_breaches" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "customer_id" UUID NOT NULL,
    "breach_id" UUID NOT NULL,
    "emails" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "resolved" BOOLEAN NOT NULL DEFAULT false,
    "resolved_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "customer_breaches_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "breaches_name_key" ON "breaches"("name");

-- CreateIndex
CREATE INDEX "customer_breaches_breach_id_idx" ON "customer_breaches"("breach_id");

-- CreateIndex
CREATE UNIQUE INDEX "customer_breaches_customer_id_breach_id_key" ON "customer_breaches"("customer_id", "breach_id");

-- AddForeignKey
ALTER TABLE "customer_breaches" ADD CONSTRAINT "customer_breaches_customer_id_fkey" FOREIGN KEY ("customer_id") REFERENCES "customers"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "customer_breaches" ADD CONSTRAINT "customer_breaches_breach_id_fkey" FOREIGN KEY ("breach_id") REFERENCES "breaches"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

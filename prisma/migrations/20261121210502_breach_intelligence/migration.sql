-- AlterTable
ALTER TABLE "breaches" ADD COLUMN     "description_text" TEXT NOT NULL DEFAULT '';

-- CreateTable
CREATE TABLE "breach_categories" (
    "id" SERIAL NOT NULL,
    "name" TEXT NOT NULL,
    "group" TEXT NOT NULL,
    "description" TEXT NOT NULL,
    "tooltip" TEXT NOT NULL,
    "link" TEXT NOT NULL,
    "is_blacklist" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "breach_categories_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "breach_exposures" (
    "email" TEXT NOT NULL,
    "domain" TEXT NOT NULL,
    "breach_id" UUID NOT NULL,

    CONSTRAINT "breach_exposures_pkey" PRIMARY KEY ("email","breach_id")
);

-- CreateTable
CREATE TABLE "rate_limit_counters" (
    "key" TEXT NOT NULL,
    "window_start" TIMESTAMPTZ(3) NOT NULL,
    "count" INTEGER NOT NULL,

    CONSTRAINT "rate_limit_counters_pkey" PRIMARY KEY ("key")
);

-- CreateIndex
CREATE UNIQUE INDEX "breach_categories_name_key" ON "breach_categories"("name");

-- CreateIndex
CREATE INDEX "breach_exposures_domain_idx" ON "breach_exposures"("domain");

-- AddForeignKey
ALTER TABLE "breach_exposures" ADD CONSTRAINT "breach_exposures_breach_id_fkey" FOREIGN KEY ("breach_id") REFERENCES "breaches"("id") ON DELETE CASCADE ON UPDATE CASCADE;

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
    "domain" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "breach_id" UUID NOT NULL,

    CONSTRAINT "breach_exposures_pkey" PRIMARY KEY ("domain","email","breach_id")
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

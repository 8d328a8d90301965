-- AlterTable
ALTER TABLE "breach_exposures" ADD COLUMN     "import_id" BIGINT;

-- CreateTable
CREATE TABLE "exposure_imports" (
    "id" BIGSERIAL NOT NULL,
    "added" BIGINT NOT NULL DEFAULT 0,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "exposure_imports_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "breach_exposures_import_id_idx" ON "breach_exposures" USING BRIN ("import_id");

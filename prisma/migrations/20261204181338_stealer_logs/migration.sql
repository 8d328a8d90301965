-- CreateTable
CREATE TABLE "stealer_log_exposures" (
    "domain" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "breach_id" UUID NOT NULL,
    "website_domain" TEXT NOT NULL,
    "captured_at" TIMESTAMPTZ(3),

    CONSTRAINT "stealer_log_exposures_pkey" PRIMARY KEY ("domain","email","breach_id","website_domain")
);

-- CreateTable
CREATE TABLE "stealer_log_imports" (
    "id" BIGSERIAL NOT NULL,
    "breach_id" UUID NOT NULL,
    "file" TEXT NOT NULL,
    "file_size" BIGINT NOT NULL,
    "bytes_done" BIGINT NOT NULL DEFAULT 0,
    "lines_done" BIGINT NOT NULL DEFAULT 0,
    "rows" BIGINT NOT NULL DEFAULT 0,
    "added" BIGINT NOT NULL DEFAULT 0,
    "rejected" BIGINT NOT NULL DEFAULT 0,
    "completed_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "stealer_log_imports_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "stealer_log_imports_breach_id_file_idx" ON "stealer_log_imports"("breach_id", "file");

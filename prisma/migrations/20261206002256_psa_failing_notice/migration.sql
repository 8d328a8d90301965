-- AlterEnum
ALTER TYPE "notification_kind" ADD VALUE 'psa_failing';
